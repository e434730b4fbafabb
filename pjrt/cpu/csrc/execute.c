/*
 * execute.c: executables and PJRT_LoadedExecutable_Execute.
 *
 * Execution is synchronous: the compiled stela_entry runs on the calling
 * thread for one device; for several devices (an executable compiled with
 * a device assignment) one thread per extra device runs alongside, each
 * with a runtime table of its own, all meeting at one rendezvous for
 * collectives (stela_rt_run_devices, internal/rt/rt_coll.c). Results are fresh
 * 64-byte-aligned allocations that overlap nothing, as the compiled ABI
 * promises; completion events are created complete. A program that
 * reports failure (stela_entry returns nonzero) makes Execute return the
 * error and hand out nothing.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

#define FN "PJRT_LoadedExecutable_Execute"

PJRT_Error* stela_loaded_executable_new(PJRT_Client* c, stela_program* prog, bool portable, size_t replicas,
                                        size_t partitions, const int* assignment, PJRT_LoadedExecutable** out) {
  PJRT_LoadedExecutable* e = calloc(1, sizeof(*e));
  size_t n = portable ? 0 : replicas * partitions;
  PJRT_Device** devs = calloc(n + 1, sizeof(PJRT_Device*));
  if (e == NULL || devs == NULL) {
    free(e);
    free(devs);
    stela_program_release(prog);
    return stela_oom();
  }
  if (c->nodes > 1 && n > 0) {
    /* The assignment names the job's devices: this process runs its own. */
    e->owner = malloc(n * sizeof(int32_t));
    e->local = malloc(n * sizeof(int64_t));
    if (e->owner == NULL || e->local == NULL) {
      free(e->owner);
      free(e->local);
      free(e);
      free(devs);
      stela_program_release(prog);
      return stela_oom();
    }
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
      e->owner[i] = assignment[i] / c->ndev;
      if (e->owner[i] == c->node) {
        devs[k] = c->device_ptrs[assignment[i] % c->ndev];
        e->local[k++] = (int64_t)i;
      }
    }
    if (k == 0) {
      free(e->owner);
      free(e->local);
      free(e);
      free(devs);
      stela_program_release(prog);
      return stela_error(PJRT_Error_Code_INVALID_ARGUMENT,
                         "PJRT_Client_Compile: the device assignment names no device of this process (process %d, "
                         "devices %d to %d of the job)",
                         c->node, c->node * c->ndev, c->node * c->ndev + c->ndev - 1);
    }
    if (k == n) { /* all here: an execution of this process alone */
      free(e->owner);
      free(e->local);
      e->owner = NULL;
      e->local = NULL;
    }
    n = k;
  } else {
    for (size_t i = 0; i < n; i++) devs[i] = c->device_ptrs[assignment[i]];
  }
  e->client = c;
  e->prog = prog;
  e->portable = portable;
  e->num_replicas = replicas;
  e->num_partitions = partitions;
  e->ndev = n;
  e->devices = devs;
  atomic_init(&e->deleted, false);
  stela_client_retain(c);
  *out = e;
  return NULL;
}

/* ---- PJRT_Executable ---- */

#define NEED_EXE(fn, e) \
  if ((e) == NULL) return stela_error(PJRT_Error_Code_INVALID_ARGUMENT, fn ": executable is NULL")

PJRT_Error* stela_Executable_Destroy(PJRT_Executable_Destroy_Args* args) {
  STELA_CHECK_ARGS(PJRT_Executable_Destroy_Args, args, executable);
  PJRT_Executable* e = args->executable;
  if (e == NULL) return NULL;
  stela_program_release(e->prog);
  free(e);
  return NULL;
}

PJRT_Error* stela_Executable_Name(PJRT_Executable_Name_Args* args) {
  STELA_CHECK_ARGS(PJRT_Executable_Name_Args, args, executable_name_size);
  NEED_EXE("PJRT_Executable_Name", args->executable);
  args->executable_name = args->executable->prog->name;
  args->executable_name_size = args->executable->prog->name_len;
  return NULL;
}

PJRT_Error* stela_Executable_NumReplicas(PJRT_Executable_NumReplicas_Args* args) {
  STELA_CHECK_ARGS(PJRT_Executable_NumReplicas_Args, args, num_replicas);
  NEED_EXE("PJRT_Executable_NumReplicas", args->executable);
  args->num_replicas = args->executable->num_replicas;
  return NULL;
}

PJRT_Error* stela_Executable_NumPartitions(PJRT_Executable_NumPartitions_Args* args) {
  STELA_CHECK_ARGS(PJRT_Executable_NumPartitions_Args, args, num_partitions);
  NEED_EXE("PJRT_Executable_NumPartitions", args->executable);
  args->num_partitions = args->executable->num_partitions;
  return NULL;
}

PJRT_Error* stela_Executable_NumOutputs(PJRT_Executable_NumOutputs_Args* args) {
  STELA_CHECK_ARGS(PJRT_Executable_NumOutputs_Args, args, num_outputs);
  NEED_EXE("PJRT_Executable_NumOutputs", args->executable);
  args->num_outputs = args->executable->prog->nres;
  return NULL;
}

PJRT_Error* stela_Executable_SizeOfGeneratedCodeInBytes(PJRT_Executable_SizeOfGeneratedCodeInBytes_Args* args) {
  STELA_CHECK_ARGS(PJRT_Executable_SizeOfGeneratedCodeInBytes_Args, args, size_in_bytes);
  NEED_EXE("PJRT_Executable_SizeOfGeneratedCodeInBytes", args->executable);
  args->size_in_bytes = args->executable->prog->code_size;
  return NULL;
}

/* The optimized program: the StableHLO text the worker compiled when it
   rewrote the program (an SPMD partition), else the program as given is
   not kept and this is NOT_FOUND. The two-call protocol: code NULL asks
   for the size (and the format), then the caller's buffer is filled. */
PJRT_Error* stela_Executable_OptimizedProgram(PJRT_Executable_OptimizedProgram_Args* args) {
  STELA_CHECK_ARGS(PJRT_Executable_OptimizedProgram_Args, args, program);
  NEED_EXE("PJRT_Executable_OptimizedProgram", args->executable);
  PJRT_Program* prog = args->program;
  if (prog == NULL) return stela_error(PJRT_Error_Code_INVALID_ARGUMENT, "PJRT_Executable_OptimizedProgram: program is NULL");
  const char* text = args->executable->prog->optimized;
  if (text == NULL)
    return stela_error(PJRT_Error_Code_NOT_FOUND,
                       "PJRT_Executable_OptimizedProgram: the program was compiled as given (only SPMD-partitioned "
                       "programs keep their optimized form)");
  size_t n = strlen(text);
  static const char format[] = "mlir";
  prog->format = format;
  prog->format_size = sizeof format - 1;
  if (prog->code == NULL) {
    prog->code_size = n;
    return NULL;
  }
  if (prog->code_size < n)
    return stela_error(PJRT_Error_Code_INVALID_ARGUMENT, "PJRT_Executable_OptimizedProgram: code_size %zu < %zu",
                       prog->code_size, n);
  memcpy(prog->code, text, n);
  prog->code_size = n;
  return NULL;
}

PJRT_Error* stela_Executable_OutputMemoryKinds(PJRT_Executable_OutputMemoryKinds_Args* args) {
  STELA_CHECK_ARGS(PJRT_Executable_OutputMemoryKinds_Args, args, memory_kind_sizes);
  NEED_EXE("PJRT_Executable_OutputMemoryKinds", args->executable);
  stela_program* p = args->executable->prog;
  args->num_outputs = p->nres;
  args->memory_kinds = p->out_kinds;
  args->memory_kind_sizes = p->out_kind_sizes;
  return NULL;
}

PJRT_Error* stela_Executable_OutputElementTypes(PJRT_Executable_OutputElementTypes_Args* args) {
  STELA_CHECK_ARGS(PJRT_Executable_OutputElementTypes_Args, args, num_output_types);
  NEED_EXE("PJRT_Executable_OutputElementTypes", args->executable);
  stela_program* p = args->executable->prog;
  args->output_types = p->out_types;
  args->num_output_types = p->nres;
  return NULL;
}

PJRT_Error* stela_Executable_OutputDimensions(PJRT_Executable_OutputDimensions_Args* args) {
  STELA_CHECK_ARGS(PJRT_Executable_OutputDimensions_Args, args, dim_sizes);
  NEED_EXE("PJRT_Executable_OutputDimensions", args->executable);
  stela_program* p = args->executable->prog;
  args->num_outputs = p->nres;
  args->dims = p->out_dims;
  args->dim_sizes = p->out_ranks;
  return NULL;
}

PJRT_Error* stela_Executable_Fingerprint(PJRT_Executable_Fingerprint_Args* args) {
  STELA_CHECK_ARGS(PJRT_Executable_Fingerprint_Args, args, executable_fingerprint_size);
  NEED_EXE("PJRT_Executable_Fingerprint", args->executable);
  /* The compile cache key: same program, options, worker and CPU. */
  args->executable_fingerprint = args->executable->prog->fingerprint;
  args->executable_fingerprint_size = strlen(args->executable->prog->fingerprint);
  return NULL;
}

PJRT_Error* stela_Executable_GetCompiledMemoryStats(PJRT_Executable_GetCompiledMemoryStats_Args* args) {
  STELA_CHECK_ARGS(PJRT_Executable_GetCompiledMemoryStats_Args, args, executable);
  NEED_EXE("PJRT_Executable_GetCompiledMemoryStats", args->executable);
  stela_program* p = args->executable->prog;
  /* gopjrt fails a compile if this fails: answer what is known, zeros
     for the rest. Device memory is host memory here. */
#define SET(f, v) \
  if (STELA_HAS(PJRT_Executable_GetCompiledMemoryStats_Args, args, f)) args->f = (v)
  SET(generated_code_size_in_bytes, p->code_size);
  SET(argument_size_in_bytes, p->arg_bytes);
  SET(output_size_in_bytes, p->res_bytes);
  SET(alias_size_in_bytes, p->alias_bytes);
  SET(temp_size_in_bytes, 0);
  SET(host_generated_code_size_in_bytes, 0);
  SET(host_argument_size_in_bytes, 0);
  SET(host_output_size_in_bytes, 0);
  SET(host_alias_size_in_bytes, 0);
  SET(host_temp_size_in_bytes, 0);
  SET(peak_memory_in_bytes, p->arg_bytes + p->res_bytes);
#undef SET
  return NULL;
}

/* ---- PJRT_LoadedExecutable ---- */

PJRT_Error* stela_LoadedExecutable_Destroy(PJRT_LoadedExecutable_Destroy_Args* args) {
  STELA_CHECK_ARGS(PJRT_LoadedExecutable_Destroy_Args, args, executable);
  PJRT_LoadedExecutable* e = args->executable;
  if (e == NULL) return NULL;
  PJRT_Client* c = e->client;
  stela_program_release(e->prog);
  free(e->devices);
  free(e->owner);
  free(e->local);
  free(e);
  stela_client_release(c);
  return NULL;
}

PJRT_Error* stela_LoadedExecutable_GetExecutable(PJRT_LoadedExecutable_GetExecutable_Args* args) {
  STELA_CHECK_ARGS(PJRT_LoadedExecutable_GetExecutable_Args, args, executable);
  PJRT_LoadedExecutable* le = args->loaded_executable;
  if (le == NULL)
    return stela_error(PJRT_Error_Code_INVALID_ARGUMENT, "PJRT_LoadedExecutable_GetExecutable: loaded_executable is NULL");
  PJRT_Executable* e = calloc(1, sizeof(*e));
  if (e == NULL) return stela_oom();
  stela_program_retain(le->prog);
  e->prog = le->prog;
  e->num_replicas = le->num_replicas;
  e->num_partitions = le->num_partitions;
  args->executable = e;
  return NULL;
}

PJRT_Error* stela_LoadedExecutable_AddressableDevices(PJRT_LoadedExecutable_AddressableDevices_Args* args) {
  STELA_CHECK_ARGS(PJRT_LoadedExecutable_AddressableDevices_Args, args, num_addressable_devices);
  NEED_EXE("PJRT_LoadedExecutable_AddressableDevices", args->executable);
  /* Empty for a portable executable: it runs where execute_device says. */
  args->addressable_devices = args->executable->devices;
  args->num_addressable_devices = args->executable->ndev;
  return NULL;
}

PJRT_Error* stela_LoadedExecutable_Delete(PJRT_LoadedExecutable_Delete_Args* args) {
  STELA_CHECK_ARGS(PJRT_LoadedExecutable_Delete_Args, args, executable);
  NEED_EXE("PJRT_LoadedExecutable_Delete", args->executable);
  atomic_store(&args->executable->deleted, true);
  return NULL;
}

PJRT_Error* stela_LoadedExecutable_IsDeleted(PJRT_LoadedExecutable_IsDeleted_Args* args) {
  STELA_CHECK_ARGS(PJRT_LoadedExecutable_IsDeleted_Args, args, is_deleted);
  NEED_EXE("PJRT_LoadedExecutable_IsDeleted", args->executable);
  args->is_deleted = atomic_load(&args->executable->deleted);
  return NULL;
}

/* ---- Execute contexts ---- */

PJRT_Error* stela_ExecuteContext_Create(PJRT_ExecuteContext_Create_Args* args) {
  STELA_CHECK_ARGS(PJRT_ExecuteContext_Create_Args, args, context);
  PJRT_ExecuteContext* ctx = calloc(1, sizeof(*ctx));
  if (ctx == NULL) return stela_oom();
  atomic_init(&ctx->cancel, 0);
  args->context = ctx;
  return NULL;
}

PJRT_Error* stela_ExecuteContext_Destroy(PJRT_ExecuteContext_Destroy_Args* args) {
  STELA_CHECK_ARGS(PJRT_ExecuteContext_Destroy_Args, args, context);
  free(args->context);
  return NULL;
}

/* ---- Execute ---- */

/* One device's run: the argument storages it holds, the pointers the
   program gets, and the results it makes. */
typedef struct run {
  stela_program* prog;
  PJRT_Device* device;
  stela_storage** in;  /* [nargs] references taken for the run */
  void** in_ptrs;      /* [nargs] what the program reads */
  void** copies;       /* [nargs] aligned copies of misaligned views, or NULL */
  PJRT_Buffer** donors; /* [nargs] the buffer whose storage in[i] was taken (donated), or NULL */
  stela_storage** out; /* [nres] */
  void** out_ptrs;     /* [nres] */
  _Atomic int32_t* cancel; /* the execution's cancellation flag */
  int rc;
  char err[256]; /* last: not zeroed up front (run_entry empties it) */
} run;

/* Runs a one-device execution on the calling thread, with the client's
   runtime table (device 0 of 1: replica 0, partition 0). */
static void run_entry(run* r) {
  r->err[0] = '\0'; /* the program writes a terminated message, if any */
  PJRT_Client* c = r->device->client;
  stela_rt rt = c->rt; /* with this execution's cancellation flag */
  rt.cancel = r->cancel;
  r->rc = stela_rt_run(c->pool, &rt, r->prog->entry, r->in_ptrs, r->out_ptrs, r->err);
  r->err[sizeof(r->err) - 1] = '\0';
}

/* Gives the donated storages back to their buffers: the execution did
   not start (an argument or allocation failed). */
static void run_restore(run* r, size_t nargs) {
  for (size_t i = 0; i < nargs; i++) {
    PJRT_Buffer* b = r->donors[i];
    if (b == NULL) continue;
    pthread_mutex_lock(&b->mu);
    b->storage = r->in[i]; /* the reference the buffer had */
    pthread_mutex_unlock(&b->mu);
    r->in[i] = NULL;
    r->donors[i] = NULL;
  }
}

static void run_release(run* r, size_t nargs, size_t nres, bool keep_outputs) {
  for (size_t i = 0; i < nargs; i++) {
    stela_storage_release(r->in[i]);
    free(r->copies[i]);
  }
  if (!keep_outputs)
    for (size_t i = 0; i < nres; i++) stela_storage_release(r->out[i]);
}

/* fn names the entry for messages: FN, or the lean entry's name. */
static PJRT_Error* check_argument(const char* fn, const stela_param* q, size_t i, size_t d, PJRT_Buffer* b,
                                  PJRT_LoadedExecutable* e, PJRT_Device* dev) {
  if (b == NULL) return stela_error(PJRT_Error_Code_INVALID_ARGUMENT, "%s: argument %zu of device %zu is NULL", fn, i, d);
  if (b->client != e->client)
    return stela_error(PJRT_Error_Code_INVALID_ARGUMENT, "%s: argument %zu of device %zu belongs to another client", fn,
                       i, d);
  bool same = b->type == q->type && b->rank == q->rank;
  for (size_t k = 0; same && k < q->rank; k++) same = b->dims[k] == q->dims[k];
  if (!same) {
    char want[512], got[512];
    int n = snprintf(want, sizeof(want), "%s[", stela_type_name(q->type));
    for (size_t k = 0; k < q->rank && n < (int)sizeof(want) - 24; k++)
      n += snprintf(want + n, sizeof(want) - (size_t)n, "%s%lld", k ? "," : "", (long long)q->dims[k]);
    snprintf(want + n, sizeof(want) - (size_t)n, "]");
    n = snprintf(got, sizeof(got), "%s[", stela_type_name(b->type));
    for (size_t k = 0; k < b->rank && n < (int)sizeof(got) - 24; k++)
      n += snprintf(got + n, sizeof(got) - (size_t)n, "%s%lld", k ? "," : "", (long long)b->dims[k]);
    snprintf(got + n, sizeof(got) - (size_t)n, "]");
    return stela_error(PJRT_Error_Code_INVALID_ARGUMENT, "%s: argument %zu of device %zu is %s, the program %s wants %s",
                       fn, i, d, got, e->prog->name, want);
  }
  if (b->device != dev)
    return stela_error(PJRT_Error_Code_INVALID_ARGUMENT,
                       "%s: argument %zu is on device %d, but device %zu of the execution is device %d", fn, i,
                       b->device->id, d, dev->id);
  return NULL;
}

/* ---- Donation (input/output aliasing) ----

   A program compiled with tf.aliasing_output pairs (stela_aliases) writes
   result j into argument i's buffer: it gets the same pointer for both.
   When the caller donates argument i (does not list it in
   non_donatable_input_indices), the argument's storage itself becomes the
   result's, with no allocation and no copy, and the argument buffer is
   left deleted (PJRT_Buffer_IsDeleted; reads fail: "deleted or donated").
   Otherwise, or when the storage cannot be taken, result j is a fresh
   buffer into which the argument is copied first, and the program runs
   in place on that copy: the caller's buffer stays intact.

   A storage is taken only when nothing else can see its bytes change:
   memory the plugin owns (not a view of caller memory), held by this
   buffer alone (no execution or transfer in flight, no external
   reference, no second buffer), and the buffer is not another argument
   of the same call. A donated argument is consumed once the program
   starts, even if it then fails; a failure before (a bad argument, no
   memory) gives it back. */

/* Whether argument i may be donated: the options do not forbid it, and
   its buffer is no later argument of the list (an earlier one holds a
   reference to the storage by now, which take_storage sees). */
static bool may_donate(const PJRT_ExecuteOptions* o, size_t i, PJRT_Buffer* const* list, size_t nargs) {
  if (o != NULL && STELA_HAS(PJRT_ExecuteOptions, o, num_non_donatable_input_indices) &&
      o->num_non_donatable_input_indices > 0) {
    if (o->non_donatable_input_indices == NULL) return false;
    for (size_t k = 0; k < o->num_non_donatable_input_indices; k++)
      if (o->non_donatable_input_indices[k] == (int64_t)i) return false;
  }
  for (size_t k = i + 1; k < nargs; k++)
    if (list[k] == list[i]) return false;
  return true;
}

/* Takes the buffer's storage (its reference) if nothing else holds it;
   NULL otherwise, and the buffer is left as it was. */
static stela_storage* take_storage(PJRT_Buffer* b) {
  pthread_mutex_lock(&b->mu);
  stela_storage* s = b->storage;
  bool ok = s != NULL && b->ext_refs == 0 && s->owned && s->on_delete == NULL &&
            atomic_load(&s->refs) == 1 && ((uintptr_t)s->data & (STELA_ALIGN - 1)) == 0;
  if (ok) b->storage = NULL;
  pthread_mutex_unlock(&b->mu);
  return ok ? s : NULL;
}

/* The allocation limit's check of result j (stela_check_alloc), with its
   message's "what" formatted only when the result is past the limit:
   formatting it for every result was a twentieth of an eager op. */
static PJRT_Error* check_result_alloc(const char* fn, PJRT_LoadedExecutable* e, size_t j) {
  stela_program* p = e->prog;
  const stela_param* rp = &p->params[p->nargs + j];
  int64_t lim = e->client->max_alloc_bytes;
  if (lim <= 0 || (uint64_t)rp->nbytes <= (uint64_t)lim) return NULL;
  char what[128];
  snprintf(what, sizeof(what), "%.80s: result %zu", p->name, j);
  return stela_check_alloc(e->client, fn, what, rp->type, rp->dims, rp->rank, rp->nbytes);
}

/* Takes the arguments of device d and allocates its results. */
static PJRT_Error* prepare(run* r, PJRT_LoadedExecutable* e, size_t d, PJRT_Buffer* const* list,
                           const PJRT_ExecuteOptions* o) {
  stela_program* p = e->prog;
  for (size_t i = 0; i < p->nargs; i++) {
    PJRT_Error* err = check_argument(FN, &p->params[i], i, d, list[i], e, r->device);
    if (err != NULL) return err;
    stela_storage* s = NULL;
    if (p->arg_alias != NULL && p->arg_alias[i] >= 0 && may_donate(o, i, list, p->nargs) &&
        (s = take_storage(list[i])) != NULL)
      r->donors[i] = list[i];
    else
      s = stela_buffer_acquire(list[i]);
    if (s == NULL)
      return stela_error(PJRT_Error_Code_INVALID_ARGUMENT, FN ": argument %zu of device %zu was deleted or donated", i, d);
    r->in[i] = s;
    r->in_ptrs[i] = s->data;
    uintptr_t need = p->args_any_align && p->params[i].esize > 0 ? p->params[i].esize : STELA_ALIGN;
    if (((uintptr_t)s->data & (need - 1)) != 0) {
      /* A view of caller memory that is not aligned as the program
         assumes (64 bytes for objects that predate stela_args_any_align,
         the element size for the others): it reads an aligned copy. */
      r->copies[i] = stela_aligned_alloc(p->params[i].nbytes);
      if (r->copies[i] == NULL) return stela_oom();
      memcpy(r->copies[i], s->data, p->params[i].nbytes);
      r->in_ptrs[i] = r->copies[i];
    }
  }
  for (size_t j = 0; j < p->nres; j++) {
    int i = p->res_alias != NULL ? p->res_alias[j] : -1;
    if (i >= 0 && r->donors[i] != NULL) {
      /* Donated: the result is the argument's storage. */
      stela_storage_retain(r->in[i]);
      r->out[j] = r->in[i];
      r->out_ptrs[j] = r->in[i]->data;
      continue;
    }
    const stela_param* rp = &p->params[p->nargs + j];
    size_t nbytes = rp->nbytes;
    PJRT_Error* err = check_result_alloc(FN, e, j);
    if (err != NULL) return err;
    r->out[j] = stela_storage_new_result(nbytes, rp->rank);
    if (r->out[j] == NULL) return stela_oom();
    r->out_ptrs[j] = r->out[j]->data;
    if (i >= 0) {
      /* Aliased but not donated: the program updates a copy in place. */
      if (nbytes > 0) memcpy(r->out[j]->data, r->in_ptrs[i], nbytes);
      r->in_ptrs[i] = r->out[j]->data;
    }
  }
  return NULL;
}

/* The error of an execution cancelled through its execute context: code
   DEADLINE_EXCEEDED or CANCELLED, as stela_cpu_execute_context_cancel
   set it. */
static PJRT_Error* cancel_error(stela_program* p, PJRT_Device* dev, int32_t code) {
  if (code == PJRT_Error_Code_DEADLINE_EXCEEDED)
    return stela_error(PJRT_Error_Code_DEADLINE_EXCEEDED, "stela cpu execute: %s on device %d: deadline exceeded", p->name,
                       dev->id);
  return stela_error(PJRT_Error_Code_CANCELLED, "stela cpu execute: %s on device %d: cancelled", p->name, dev->id);
}

PJRT_Error* stela_LoadedExecutable_Execute(PJRT_LoadedExecutable_Execute_Args* args) {
  STELA_CHECK_ARGS(PJRT_LoadedExecutable_Execute_Args, args, device_complete_events);
  PJRT_LoadedExecutable* e = args->executable;
  if (e == NULL) return stela_error(PJRT_Error_Code_INVALID_ARGUMENT, FN ": executable is NULL");
  if (atomic_load(&e->deleted))
    return stela_error(PJRT_Error_Code_FAILED_PRECONDITION, FN ": the executable was deleted");
  stela_program* p = e->prog;
  PJRT_ExecuteOptions* o = args->options;
  if (o != NULL && STELA_HAS(PJRT_ExecuteOptions, o, num_recv_ops) && (o->num_send_ops != 0 || o->num_recv_ops != 0))
    return stela_error(PJRT_Error_Code_UNIMPLEMENTED, FN ": host send/recv callbacks are not supported");
  PJRT_Device* exec_dev = STELA_HAS(PJRT_LoadedExecutable_Execute_Args, args, execute_device) ? args->execute_device : NULL;
  size_t ndev = args->num_devices;

  /* Where it runs. */
  PJRT_Device* single[1];
  PJRT_Device** devs;
  if (exec_dev != NULL) {
    if (ndev != 1)
      return stela_error(PJRT_Error_Code_INVALID_ARGUMENT, FN ": execute_device is set, so num_devices must be 1, not %zu",
                         ndev);
    if (!stela_client_owns_device(e->client, exec_dev))
      return stela_error(PJRT_Error_Code_INVALID_ARGUMENT, FN ": execute_device is not a device of this client");
    if (!e->portable && (e->ndev != 1 || e->devices[0] != exec_dev))
      return stela_error(PJRT_Error_Code_INVALID_ARGUMENT,
                         FN ": the executable was compiled for %zu device(s) by device assignment; pass execute_device "
                         "NULL (or its one device)",
                         e->ndev);
    single[0] = exec_dev;
    devs = single;
  } else if (e->portable) {
    if (ndev != 1)
      return stela_error(PJRT_Error_Code_INVALID_ARGUMENT, FN ": a portable executable runs on one device, not %zu", ndev);
    /* No device named: the first argument's, else the first device. */
    single[0] = e->client->device_ptrs[0];
    if (p->nargs > 0 && args->argument_lists != NULL && args->argument_lists[0] != NULL &&
        args->argument_lists[0][0] != NULL && args->argument_lists[0][0]->client == e->client)
      single[0] = args->argument_lists[0][0]->device;
    devs = single;
  } else {
    if (ndev != e->ndev)
      return stela_error(PJRT_Error_Code_INVALID_ARGUMENT,
                         FN ": the executable runs on %zu devices (its device assignment), got %zu argument lists",
                         e->ndev, ndev);
    devs = e->devices;
  }
  if (args->num_args != p->nargs)
    return stela_error(PJRT_Error_Code_INVALID_ARGUMENT, FN ": the program %s takes %zu arguments, got %zu", p->name,
                       p->nargs, args->num_args);
  if (p->nargs > 0 && args->argument_lists == NULL)
    return stela_error(PJRT_Error_Code_INVALID_ARGUMENT, FN ": argument_lists is NULL");
  if (p->nres > 0 && args->output_lists == NULL)
    return stela_error(PJRT_Error_Code_INVALID_ARGUMENT, FN ": output_lists is NULL");
  for (size_t d = 0; d < ndev; d++) {
    if (p->nargs > 0 && args->argument_lists[d] == NULL)
      return stela_error(PJRT_Error_Code_INVALID_ARGUMENT, FN ": argument_lists[%zu] is NULL", d);
    if (p->nres > 0 && args->output_lists[d] == NULL)
      return stela_error(PJRT_Error_Code_INVALID_ARGUMENT, FN ": output_lists[%zu] is NULL", d);
  }

  /* The cancellation flag the program watches: the execute context's, or
     one of its own that nobody sets. Cancelled already: nothing runs. */
  _Atomic int32_t own_flag;
  atomic_init(&own_flag, 0);
  _Atomic int32_t* flag = &own_flag;
  if (o != NULL && STELA_HAS(PJRT_ExecuteOptions, o, context) && o->context != NULL) flag = &o->context->cancel;
  if (atomic_load(flag) != 0) return cancel_error(p, devs[0], atomic_load(flag));

  /* One block for every device's run state. */
  size_t na = p->nargs, nr = p->nres;
  /* The common case (one device, a few operands: every eager op) keeps
     its run state on the stack. */
  run run1;
  void* block1[64];
  size_t per = 4 * na + 2 * nr; /* pointers of one device's run state */
  bool on_stack = ndev == 1 && per + 1 <= sizeof block1 / sizeof block1[0];
  run* runs = on_stack ? &run1 : calloc(ndev, sizeof(run));
  void** block = on_stack ? block1 : calloc(ndev * per + 1, sizeof(void*));
  if (on_stack) {
    /* All but the message buffer, which run_entry empties: zeroing its
       256 bytes was a quarter of this function's own time. */
    memset(&run1, 0, offsetof(run, err));
    memset(block1, 0, (per + 1) * sizeof block1[0]);
  }
  if (runs == NULL || block == NULL) {
    if (!on_stack) {
      free(runs);
      free(block);
    }
    return stela_oom();
  }
  for (size_t d = 0; d < ndev; d++) {
    void** b = block + d * per;
    runs[d].prog = p;
    runs[d].device = devs[d];
    runs[d].in = (stela_storage**)b;
    runs[d].in_ptrs = b + na;
    runs[d].copies = b + 2 * na;
    runs[d].donors = (PJRT_Buffer**)(b + 3 * na);
    runs[d].out = (stela_storage**)(b + 4 * na);
    runs[d].out_ptrs = b + 4 * na + nr;
    runs[d].cancel = flag;
  }
  PJRT_Error* err = NULL;
  for (size_t d = 0; d < ndev && err == NULL; d++)
    err = prepare(&runs[d], e, d, p->nargs > 0 ? args->argument_lists[d] : NULL, o);
  if (err != NULL)
    for (size_t d = 0; d < ndev; d++) run_restore(&runs[d], na);

  if (err == NULL && ndev == 1 && e->owner == NULL) {
    run_entry(&runs[0]);
  } else if (err == NULL) {
    /* Every device at once, each with its own runtime table (its
       replica and partition, the execution's rendezvous), so that
       collectives can meet (rt_coll.c). */
    void** block2 = calloc(3 * ndev, sizeof(void*));
    int* rcs = calloc(ndev, sizeof(int));
    int64_t cause = -1;
    if (block2 == NULL || rcs == NULL) {
      err = stela_oom();
    } else {
      void* const** a = (void* const**)block2;
      void* const** r = (void* const**)(block2 + ndev);
      char** errs = (char**)(block2 + 2 * ndev);
      for (size_t d = 0; d < ndev; d++) {
        a[d] = runs[d].in_ptrs;
        r[d] = runs[d].out_ptrs;
        errs[d] = runs[d].err;
      }
      PJRT_Client* c = e->client;
      bool coll = (p->rt_uses & STELA_RT_USES_COLLECTIVES) != 0;
      stela_rt base = c->rt; /* with this execution's cancellation flag */
      base.cancel = flag;
      int rc;
      if (e->owner != NULL)
        /* Some of the execution's devices are in other processes. */
        rc = stela_rt_run_devices_global(c->pool, &base, p->entry, (int64_t)e->num_replicas,
                                         (int64_t)e->num_partitions, &c->net, e->owner, (int64_t)ndev, e->local, a, r,
                                         errs, rcs, &cause);
      else
        rc = stela_rt_run_devices(c->pool, &base, p->entry, (int64_t)e->num_replicas, (int64_t)e->num_partitions, coll,
                                  0, a, r, errs, rcs, &cause);
      if (rc != 0) {
        err = stela_oom();
      } else {
        for (size_t d = 0; d < ndev; d++) runs[d].rc = rcs[d];
        /* The device whose failure aborted the others says what went
           wrong; the others' messages only say that they were aborted. */
        /* cause is an execution index: runs are indexed by local device. */
        int64_t k = cause;
        if (e->owner != NULL) {
          k = -1;
          for (size_t j = 0; j < ndev; j++)
            if (e->local[j] == cause) k = (int64_t)j;
        }
        if (coll && k >= 0 && (size_t)k < ndev && runs[k].rc != 0) {
          err = stela_error(PJRT_Error_Code_INTERNAL, "stela cpu execute: %s on device %d: %s", p->name,
                            runs[k].device->id, runs[k].err[0] ? runs[k].err : "the program failed without a message");
        }
      }
    }
    free(block2);
    free(rcs);
  }
  /* Cancelled while it ran: whatever the program returned, its results
     are not to be trusted (skipped chunks, loops left early). */
  if (err == NULL && atomic_load(flag) != 0) err = cancel_error(p, devs[0], atomic_load(flag));
  if (err == NULL) {
    /* stela_entry returns 1 for a run-time error and 2 for a failed
       expectation (check.* ops): INTERNAL and ABORTED. */
    for (size_t d = 0; d < ndev && err == NULL; d++)
      if (runs[d].rc != 0)
        err = stela_error(runs[d].rc == 2 ? PJRT_Error_Code_ABORTED : PJRT_Error_Code_INTERNAL,
                          "stela cpu execute: %s on device %d: %s", p->name, runs[d].device->id,
                          runs[d].err[0] ? runs[d].err : "the program failed without a message");
  }

  /* Outputs and events, all or nothing. */
  PJRT_Event** events = NULL;
  if (err == NULL && args->device_complete_events != NULL) {
    events = calloc(ndev, sizeof(PJRT_Event*));
    for (size_t d = 0; events != NULL && d < ndev; d++)
      if ((events[d] = stela_event_ready(NULL)) == NULL) err = stela_oom();
    if (events == NULL) err = stela_oom();
  }
  size_t made = 0;
  if (err == NULL) {
    for (size_t d = 0; d < ndev && err == NULL; d++)
      for (size_t j = 0; j < nr && err == NULL; j++) {
        const stela_param* q = &p->params[na + j];
        stela_storage* s = runs[d].out[j];
        runs[d].out[j] = NULL; /* the buffer owns it now, or freed it */
        err = stela_buffer_new(e->client, runs[d].device, q->type, q->dims, q->rank, s, &args->output_lists[d][j]);
        if (err == NULL) made++;
      }
    if (err != NULL) { /* undo the buffers already made */
      for (size_t k = 0; k < made; k++) {
        PJRT_Buffer_Destroy_Args da = {.struct_size = PJRT_Buffer_Destroy_Args_STRUCT_SIZE,
                                       .buffer = args->output_lists[k / nr][k % nr]};
        stela_Buffer_Destroy(&da);
        args->output_lists[k / nr][k % nr] = NULL;
      }
    }
  }
  if (events != NULL) {
    for (size_t d = 0; d < ndev; d++) {
      if (err == NULL) {
        args->device_complete_events[d] = events[d];
      } else if (events[d] != NULL) {
        PJRT_Event_Destroy_Args da = {.struct_size = PJRT_Event_Destroy_Args_STRUCT_SIZE, .event = events[d]};
        stela_Event_Destroy(&da);
      }
    }
    free(events);
  }
  for (size_t d = 0; d < ndev; d++) run_release(&runs[d], na, nr, false);
  if (!on_stack) {
    free(runs);
    free(block);
  }
  return err;
}

/* ---- The lean execute entry ----

   stela_cpu_execute_lean runs an executable on one device as
   PJRT_LoadedExecutable_Execute does for one argument list, with no
   donation, no execute context and no completion event, taking flat
   arrays instead of PJRT's nested argument and output lists and options:
   the eager-dispatch path of Stela's Go client (pjrt/lean.go), found with
   dlsym next to GetPjrtApi. Other plugins, and calls that donate, watch a
   context or want events, go through PJRT_LoadedExecutable_Execute.

   First it destroys the ndead buffers of dead (NULL entries skipped), as
   PJRT_Buffer_Destroy would each: buffers of the caller's whose owners
   are gone, destroyed in the call that runs anyway (stela_buffers_free).
   The caller holds every argument against PJRT_Buffer_Destroy,
   PJRT_Buffer_Delete and donation to another execution for the whole
   call (Stela's Go client: each argument's handle, read-locked, while
   Delete and donation write-lock it): the entry reads the arguments'
   storage without their mutex or a reference of its own.
   Then it checks everything Execute checks for this case (the
   executable, the device, the argument count, each argument's client,
   type, shape, device, and that it is not deleted or donated; the output
   count; the allocation limit) and runs the program on the calling
   thread. dev NULL is the first argument's device, else the client's
   first. On success outs[0..nouts) are new buffers, which the caller
   destroys; on error it returns the error (PJRT_Error_Destroy frees it)
   and outs are left NULL. At most STELA_LEAN_MAX arguments and results:
   a call with more is an INVALID_ARGUMENT error that says to use Execute. */

#define LEAN "stela_cpu_execute_lean"
#define STELA_LEAN_MAX 16

__attribute__((visibility("default"))) PJRT_Error* stela_cpu_execute_lean(PJRT_LoadedExecutable* e, PJRT_Device* dev,
                                                                          PJRT_Buffer* const* args, size_t nargs,
                                                                          PJRT_Buffer** outs, size_t nouts,
                                                                          PJRT_Buffer* const* dead, size_t ndead) {
  if (ndead > 0 && dead != NULL) stela_buffers_free(dead, ndead);
  for (size_t j = 0; outs != NULL && j < nouts; j++) outs[j] = NULL;
  if (e == NULL) return stela_error(PJRT_Error_Code_INVALID_ARGUMENT, LEAN ": executable is NULL");
  if (atomic_load_explicit(&e->deleted, memory_order_relaxed))
    return stela_error(PJRT_Error_Code_FAILED_PRECONDITION, LEAN ": the executable was deleted");
  stela_program* p = e->prog;
  PJRT_Client* c = e->client;
  if (nargs != p->nargs)
    return stela_error(PJRT_Error_Code_INVALID_ARGUMENT, LEAN ": the program %s takes %zu arguments, got %zu", p->name,
                       p->nargs, nargs);
  if (nouts != p->nres)
    return stela_error(PJRT_Error_Code_INVALID_ARGUMENT, LEAN ": the program %s has %zu results, got room for %zu",
                       p->name, p->nres, nouts);
  if (nargs > STELA_LEAN_MAX || nouts > STELA_LEAN_MAX)
    return stela_error(PJRT_Error_Code_INVALID_ARGUMENT,
                       LEAN ": the program %s has %zu arguments and %zu results, more than %d: use "
                       "PJRT_LoadedExecutable_Execute",
                       p->name, nargs, nouts, STELA_LEAN_MAX);
  if ((nargs > 0 && args == NULL) || (nouts > 0 && outs == NULL))
    return stela_error(PJRT_Error_Code_INVALID_ARGUMENT, LEAN ": %s is NULL", args == NULL ? "args" : "outs");
  if (dev == NULL) {
    dev = c->device_ptrs[0];
    if (!e->portable)
      dev = e->ndev > 0 ? e->devices[0] : dev;
    else if (nargs > 0 && args[0] != NULL && args[0]->client == c)
      dev = args[0]->device;
  }
  if (!stela_client_owns_device(c, dev))
    return stela_error(PJRT_Error_Code_INVALID_ARGUMENT, LEAN ": the device is not a device of this client");
  if (!e->portable && (e->ndev != 1 || e->devices[0] != dev || e->owner != NULL))
    return stela_error(PJRT_Error_Code_INVALID_ARGUMENT,
                       LEAN ": the executable was compiled for %zu device(s) by device assignment, not for this one "
                       "device: use PJRT_LoadedExecutable_Execute",
                       e->ndev);

  void* in_ptrs[STELA_LEAN_MAX];
  void* copies[STELA_LEAN_MAX];
  stela_storage* out[STELA_LEAN_MAX];
  void* out_ptrs[STELA_LEAN_MAX];
  size_t held = 0, made = 0;
  PJRT_Error* err = NULL;
  for (size_t i = 0; i < nargs; i++) {
    if ((err = check_argument(LEAN, &p->params[i], i, 0, args[i], e, dev)) != NULL) break;
    /* Borrowed, not acquired: the caller holds its arguments against
       Destroy, Delete and donation for the call (see above), so their
       storage stays; the buffer's mutex and a storage reference were
       four locked instructions per argument. */
    stela_storage* s = args[i]->storage;
    if (s == NULL) {
      err = stela_error(PJRT_Error_Code_INVALID_ARGUMENT, LEAN ": argument %zu was deleted or donated", i);
      break;
    }
    copies[i] = NULL;
    held = i + 1;
    in_ptrs[i] = s->data;
    if (((uintptr_t)s->data & (STELA_ALIGN - 1)) != 0) {
      /* A view of caller memory that is not 64-byte aligned (as Execute). */
      if ((copies[i] = stela_aligned_alloc(p->params[i].nbytes)) == NULL) {
        err = stela_oom();
        break;
      }
      memcpy(copies[i], s->data, p->params[i].nbytes);
      in_ptrs[i] = copies[i];
    }
  }
  for (; err == NULL && made < nouts; made++) {
    size_t j = made;
    const stela_param* rp = &p->params[nargs + j];
    if ((err = check_result_alloc(LEAN, e, j)) != NULL) break;
    if ((out[j] = stela_storage_new_result(rp->nbytes, rp->rank)) == NULL) {
      err = stela_oom();
      break;
    }
    out_ptrs[j] = out[j]->data;
    int a = p->res_alias != NULL ? p->res_alias[j] : -1;
    if (a >= 0) {
      /* Aliased, never donated here: the program updates a copy. */
      if (rp->nbytes > 0) memcpy(out[j]->data, in_ptrs[a], rp->nbytes);
      in_ptrs[a] = out[j]->data;
    }
  }
  if (err == NULL) {
    _Atomic int32_t cancel;
    atomic_init(&cancel, 0);
    char msg[256];
    msg[0] = '\0';
    stela_rt rt = c->rt;
    rt.cancel = &cancel;
    int rc = stela_rt_run(c->pool, &rt, p->entry, in_ptrs, out_ptrs, msg);
    msg[sizeof(msg) - 1] = '\0';
    if (rc != 0)
      err = stela_error(rc == 2 ? PJRT_Error_Code_ABORTED : PJRT_Error_Code_INTERNAL, "stela cpu execute: %s on device %d: %s",
                        p->name, dev->id, msg[0] ? msg : "the program failed without a message");
  }
  size_t bufs = 0;
  for (; err == NULL && bufs < nouts; bufs++) {
    const stela_param* q = &p->params[nargs + bufs];
    stela_storage* s = out[bufs];
    out[bufs] = NULL; /* the buffer owns it now, or freed it */
    err = stela_buffer_new(c, dev, q->type, q->dims, q->rank, s, &outs[bufs]);
  }
  if (err != NULL) {
    /* All or nothing: undo the buffers made, free the results not given
       to one. */
    stela_buffers_free(outs, bufs);
    for (size_t j = 0; j < nouts; j++) outs[j] = NULL;
    for (size_t j = bufs; j < made; j++) stela_storage_release(out[j]);
  }
  for (size_t i = 0; i < held; i++) free(copies[i]);
  return err;
}
