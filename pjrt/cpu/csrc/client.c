/*
 * client.c: PJRT_Client, its devices, device descriptions and memories.
 *
 * A client has N virtual CPU devices (create option cpu_device_count, else
 * the environment variable STELA_CPU_DEVICES, else 1), ids 0..N-1, each
 * with one memory of kind "device" whose id is the device's. All of them
 * are made in PJRT_Client_Create and never change, so their queries need
 * no lock.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "internal.h"

static const char platform_name[] = "cpu";
static const char device_kind[] = "cpu";
static const char memory_kind[] = "device";

void stela_client_retain(PJRT_Client* c) { atomic_fetch_add(&c->refs, 1); }

/* Clients alive in the process: the buffer memory cache is emptied when
   the last one is freed. */
static atomic_long live_clients;

static void client_free(PJRT_Client* c) {
  for (int i = 0; i < c->ndev; i++) {
    free(c->devices[i].desc.to_string);
    free(c->devices[i].desc.debug_string);
    free(c->memories[i].to_string);
    free(c->memories[i].debug_string);
  }
  free(c->devices);
  free(c->device_ptrs);
  free(c->memories);
  free(c->memory_ptrs);
  free(c->worker);
  free(c->worker_id);
  free(c->cache_dir);
  stela_pool_free(c->pool);
  stela_gloo_free(c->gloo);
  free(c->live);
  pthread_mutex_destroy(&c->mu);
  bool counted = c->counted;
  free(c);
  if (counted && atomic_fetch_sub(&live_clients, 1) == 1) stela_buffer_cache_drain();
}

void stela_client_release(PJRT_Client* c) { stela_client_release_n(c, 1); }

void stela_client_release_n(PJRT_Client* c, long n) {
  if (n > 0 && atomic_fetch_sub(&c->refs, n) == n) client_free(c);
}

bool stela_client_owns_device(const PJRT_Client* c, const PJRT_Device* d) {
  return d != NULL && d >= c->devices && d < c->devices + c->ndev;
}

bool stela_client_owns_memory(const PJRT_Client* c, const PJRT_Memory* m) {
  return m != NULL && m >= c->memories && m < c->memories + c->ndev;
}

/* ---- Create options ---- */

static const char* value_type_name(PJRT_NamedValue_Type t) {
  switch (t) {
    case PJRT_NamedValue_kString:
      return "string";
    case PJRT_NamedValue_kInt64:
      return "int64";
    case PJRT_NamedValue_kInt64List:
      return "int64 list";
    case PJRT_NamedValue_kFloat:
      return "float";
    case PJRT_NamedValue_kBool:
      return "bool";
  }
  return "unknown type";
}

/* Parses a decimal integer that fills all of s. */
static bool parse_ll(const char* s, long long* out) {
  if (s == NULL || *s == '\0') return false;
  char* end;
  errno = 0;
  long long v = strtoll(s, &end, 10);
  if (errno != 0 || *end != '\0') return false;
  *out = v;
  return true;
}

typedef struct client_options {
  long long ndev;
  const char* ndev_from; /* for messages */
  char* worker;
  char* worker_id;
  char* cache_dir;
  long long timeout_ms;
  long long threads; /* 0: not set */
  long long node_id, num_nodes; /* -1: not set */
  char* gloo_host;
  char* gloo_iface;
  long long coll_timeout_ms;
} client_options;

/* Reads the options the plugin knows; others are ignored, since clients
   such as gopjrt pass whatever map their user gives. A known option of the
   wrong type or value is an INVALID_ARGUMENT error. */
static PJRT_Error* read_options(const PJRT_NamedValue* opts, size_t n, client_options* o) {
  if (n > 0 && opts == NULL)
    return stela_error(PJRT_Error_Code_INVALID_ARGUMENT, "PJRT_Client_Create: %zu create options but create_options is NULL", n);
  for (size_t i = 0; i < n; i++) {
    const PJRT_NamedValue* v = &opts[i];
    const char* want = NULL;
    PJRT_NamedValue_Type want_type = PJRT_NamedValue_kInt64;
    if (stela_name_is(v->name, v->name_size, "cpu_device_count")) {
      want = "cpu_device_count";
    } else if (stela_name_is(v->name, v->name_size, "stela_compile_timeout_ms")) {
      want = "stela_compile_timeout_ms";
    } else if (stela_name_is(v->name, v->name_size, "cpu_threads")) {
      want = "cpu_threads";
    } else if (stela_name_is(v->name, v->name_size, "stela_worker")) {
      want = "stela_worker";
      want_type = PJRT_NamedValue_kString;
    } else if (stela_name_is(v->name, v->name_size, "stela_worker_id")) {
      want = "stela_worker_id";
      want_type = PJRT_NamedValue_kString;
    } else if (stela_name_is(v->name, v->name_size, "stela_cache_dir")) {
      want = "stela_cache_dir";
      want_type = PJRT_NamedValue_kString;
    } else if (stela_name_is(v->name, v->name_size, "node_id")) {
      want = "node_id";
    } else if (stela_name_is(v->name, v->name_size, "num_nodes")) {
      want = "num_nodes";
    } else if (stela_name_is(v->name, v->name_size, "stela_collective_timeout_ms")) {
      want = "stela_collective_timeout_ms";
    } else if (stela_name_is(v->name, v->name_size, "stela_gloo_host")) {
      want = "stela_gloo_host";
      want_type = PJRT_NamedValue_kString;
    } else if (stela_name_is(v->name, v->name_size, "stela_gloo_iface")) {
      want = "stela_gloo_iface";
      want_type = PJRT_NamedValue_kString;
    } else {
      continue;
    }
    if (v->type != want_type)
      return stela_error(PJRT_Error_Code_INVALID_ARGUMENT,
                         "PJRT_Client_Create: create option %s must be of type %s, got %s", want,
                         value_type_name(want_type), value_type_name(v->type));
    if (want_type == PJRT_NamedValue_kString) {
      if (v->value_size > 0 && v->string_value == NULL)
        return stela_error(PJRT_Error_Code_INVALID_ARGUMENT, "PJRT_Client_Create: create option %s: string is NULL", want);
      char* s = stela_strndup(v->string_value, v->value_size);
      if (s == NULL) return stela_oom();
      bool is_worker = strcmp(want, "stela_worker") == 0;
      char** dst = is_worker                                  ? &o->worker
                   : strcmp(want, "stela_worker_id") == 0     ? &o->worker_id
                   : strcmp(want, "stela_gloo_host") == 0     ? &o->gloo_host
                   : strcmp(want, "stela_gloo_iface") == 0    ? &o->gloo_iface
                                                               : &o->cache_dir;
      free(*dst);
      *dst = s;
      if (is_worker && s[0] != '/')
        return stela_error(PJRT_Error_Code_INVALID_ARGUMENT,
                           "PJRT_Client_Create: create option stela_worker must be an absolute path, got \"%s\"", s);
      continue;
    }
    /* value_size is ignored for scalars: gopjrt sends 0. */
    if (strcmp(want, "cpu_device_count") == 0) {
      o->ndev = v->int64_value;
      o->ndev_from = "create option cpu_device_count";
    } else if (strcmp(want, "node_id") == 0) {
      o->node_id = v->int64_value;
    } else if (strcmp(want, "num_nodes") == 0) {
      o->num_nodes = v->int64_value;
    } else if (strcmp(want, "stela_collective_timeout_ms") == 0) {
      if (v->int64_value <= 0)
        return stela_error(PJRT_Error_Code_INVALID_ARGUMENT,
                           "PJRT_Client_Create: create option stela_collective_timeout_ms must be positive, got %lld",
                           (long long)v->int64_value);
      o->coll_timeout_ms = v->int64_value;
    } else if (strcmp(want, "cpu_threads") == 0) {
      if (v->int64_value < 1 || v->int64_value > 1024)
        return stela_error(PJRT_Error_Code_INVALID_ARGUMENT,
                           "PJRT_Client_Create: create option cpu_threads is %lld, want 1 to 1024",
                           (long long)v->int64_value);
      o->threads = v->int64_value;
    } else {
      if (v->int64_value <= 0)
        return stela_error(PJRT_Error_Code_INVALID_ARGUMENT,
                           "PJRT_Client_Create: create option stela_compile_timeout_ms must be positive, got %lld",
                           (long long)v->int64_value);
      o->timeout_ms = v->int64_value;
    }
  }
  return NULL;
}

static PJRT_Error* make_client(const client_options* o, PJRT_Client** out) {
  int n = (int)o->ndev;
  PJRT_Client* c = calloc(1, sizeof(*c));
  if (c == NULL) return stela_oom();
  atomic_init(&c->refs, 1);
  pthread_mutex_init(&c->mu, NULL);
  c->ndev = n;
  c->compile_timeout_ms = o->timeout_ms;
  /* The pool starts its threads when a program first asks for them. */
  int threads = o->threads > 0 ? (int)o->threads : stela_rt_default_threads();
  c->pool = stela_pool_new(threads);
  if (c->pool == NULL) {
    pthread_mutex_destroy(&c->mu);
    free(c);
    return stela_oom();
  }
  stela_rt_init(&c->rt, threads);
  atomic_fetch_add(&live_clients, 1);
  c->counted = true;
  snprintf(c->platform_version, sizeof(c->platform_version), "stela_cpu %s (PJRT C API %d.%d)", STELA_PLUGIN_VERSION,
           PJRT_API_MAJOR, PJRT_API_MINOR);
  c->devices = calloc((size_t)n, sizeof(PJRT_Device));
  c->device_ptrs = calloc((size_t)n, sizeof(PJRT_Device*));
  c->memories = calloc((size_t)n, sizeof(PJRT_Memory));
  c->memory_ptrs = calloc((size_t)n, sizeof(PJRT_Memory*));
  if (c->devices == NULL || c->device_ptrs == NULL || c->memories == NULL || c->memory_ptrs == NULL) {
    c->ndev = 0;
    client_free(c);
    return stela_oom();
  }
  long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
  if (ncpu < 1) ncpu = 1;
  bool ok = true;
  for (int i = 0; i < n; i++) {
    PJRT_Device* d = &c->devices[i];
    PJRT_Memory* m = &c->memories[i];
    d->client = c;
    d->id = i;
    d->memory = m;
    d->desc.device = d;
    d->desc.id = i;
    d->desc.to_string = stela_asprintf("StelaCpuDevice(id=%d)", i);
    d->desc.debug_string =
        stela_asprintf("StelaCpuDevice(id=%d, process_index=0, kind=cpu, memory=device, devices=%d)", i, n);
    d->desc.coords[0] = i;
    /* Attributes: only int64, int64 list and string, the types XLA's
       client accepts. Names and values live as long as the client. */
    PJRT_NamedValue* a = d->desc.attrs;
    a[0] = (PJRT_NamedValue){.struct_size = PJRT_NamedValue_STRUCT_SIZE,
                             .name = "core_count",
                             .name_size = strlen("core_count"),
                             .type = PJRT_NamedValue_kInt64,
                             .int64_value = ncpu,
                             .value_size = 1};
    a[1] = (PJRT_NamedValue){.struct_size = PJRT_NamedValue_STRUCT_SIZE,
                             .name = "coords",
                             .name_size = strlen("coords"),
                             .type = PJRT_NamedValue_kInt64List,
                             .int64_array_value = d->desc.coords,
                             .value_size = 1};
    a[2] = (PJRT_NamedValue){.struct_size = PJRT_NamedValue_STRUCT_SIZE,
                             .name = "vendor",
                             .name_size = strlen("vendor"),
                             .type = PJRT_NamedValue_kString,
                             .string_value = "stela",
                             .value_size = strlen("stela")};
    m->client = c;
    m->id = i;
    m->device = d;
    m->to_string = stela_asprintf("StelaCpuMemory(id=%d, kind=device)", i);
    m->debug_string = stela_asprintf("StelaCpuMemory(id=%d, kind=device, kind_id=0, device=%d)", i, i);
    c->device_ptrs[i] = d;
    c->memory_ptrs[i] = m;
    ok = ok && d->desc.to_string && d->desc.debug_string && m->to_string && m->debug_string;
  }
  if (!ok) {
    client_free(c);
    return stela_oom();
  }
  *out = c;
  return NULL;
}

/* ---- The allocation limit ---- */

PJRT_Error* stela_max_alloc_bytes(int64_t* out) {
  const char* s = getenv("STELA_MAX_ALLOC_BYTES");
  if (s != NULL && *s != '\0') {
    if (!stela_parse_size(s, out))
      return stela_error(PJRT_Error_Code_INVALID_ARGUMENT,
                         "PJRT_Client_Create: STELA_MAX_ALLOC_BYTES=%s: want the largest array in bytes, a whole "
                         "number optionally followed by K, M, G or T (KiB, MiB, GiB, TiB), or 0 for no limit",
                         s);
    return NULL;
  }
  /* The machine's physical memory, as internal/env.DefaultMaxAllocBytes
     (glibc's sysconf reads the same sysinfo). */
  *out = (int64_t)1 << 40;
  long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
  uint64_t b;
  if (pages > 0 && page > 0 && !__builtin_mul_overflow((uint64_t)pages, (uint64_t)page, &b) && b < (uint64_t)1 << 62)
    *out = (int64_t)b;
  return NULL;
}

PJRT_Error* stela_check_alloc(const PJRT_Client* c, const char* fn, const char* what, PJRT_Buffer_Type type,
                              const int64_t* dims, size_t rank, size_t nbytes) {
  int64_t lim = c->max_alloc_bytes;
  if (lim <= 0 || (uint64_t)nbytes <= (uint64_t)lim) return NULL;
  char shape[STELA_MAX_RANK * 21 + 32], need[32], have[32];
  size_t k = (size_t)snprintf(shape, sizeof(shape), "%s[", stela_type_name(type));
  for (size_t i = 0; i < rank && k < sizeof(shape); i++)
    k += (size_t)snprintf(shape + k, sizeof(shape) - k, i ? ",%lld" : "%lld", (long long)dims[i]);
  if (k < sizeof(shape)) snprintf(shape + k, sizeof(shape) - k, "]");
  stela_format_size(need, sizeof(need), (int64_t)nbytes);
  stela_format_size(have, sizeof(have), lim);
  return stela_error(PJRT_Error_Code_RESOURCE_EXHAUSTED,
                     "%s: %s %s needs %s (%zu bytes), more than the allocation limit of %s (%lld bytes; "
                     "STELA_MAX_ALLOC_BYTES, default: the machine's physical memory)",
                     fn, what, shape, need, nbytes, have, (long long)lim);
}

/* ---- The job's key-value store, for Gloo's rendezvous ---- */

static PJRT_Error* callback_error(PJRT_Error_Code code, const char* message, size_t message_size) {
  return stela_error_copy(code, message, message_size);
}

/* Copies err's message into msg and frees it. */
static void take_message(PJRT_Error* e, char msg[256]) {
  snprintf(msg, 256, "%.*s", (int)e->len, e->msg);
  stela_error_free(e);
}

static int kv_get(void* ctx, const char* key, int timeout_ms, char** value, size_t* size, char err[256]) {
  PJRT_Client* c = ctx;
  PJRT_KeyValueGetCallback_Args a = {.struct_size = PJRT_KeyValueGetCallback_Args_STRUCT_SIZE,
                                     .key = key,
                                     .key_size = strlen(key),
                                     .timeout_in_ms = timeout_ms,
                                     .callback_error = callback_error,
                                     .user_arg = c->kv_get_arg};
  PJRT_Error* e = c->kv_get(&a);
  if (e != NULL) {
    take_message(e, err);
    return 1;
  }
  *value = malloc(a.value_size + 1);
  if (*value != NULL && a.value_size > 0) memcpy(*value, a.value, a.value_size);
  *size = a.value_size;
  if (a.value_deleter_callback != NULL && a.value != NULL) a.value_deleter_callback(a.value);
  if (*value == NULL) {
    snprintf(err, 256, "out of memory");
    return 1;
  }
  return 0;
}

static int kv_put(void* ctx, const char* key, const char* value, size_t size, char err[256]) {
  PJRT_Client* c = ctx;
  PJRT_KeyValuePutCallback_Args a = {.struct_size = PJRT_KeyValuePutCallback_Args_STRUCT_SIZE,
                                     .key = key,
                                     .key_size = strlen(key),
                                     .value = value,
                                     .value_size = size,
                                     .callback_error = callback_error,
                                     .user_arg = c->kv_put_arg};
  PJRT_Error* e = c->kv_put(&a);
  if (e != NULL) {
    take_message(e, err);
    return 1;
  }
  return 0;
}

static int32_t net_sendrecv(void* ctx, const stela_xfer* xs, int64_t n, char err[256]) {
  return stela_gloo_sendrecv(ctx, xs, n, err);
}

/* Distributed clients made by this process, by node: each gets its own
   keys in the store (every process makes them in the same order). By
   node, so that clients of several nodes in one process (tests) meet. */
static atomic_int distributed_clients[4096];

/* Makes c a client of process node of nodes: connects to the others
   through Gloo. */
static PJRT_Error* join_nodes(PJRT_Client* c, const PJRT_Client_Create_Args* args, const client_options* o) {
  if (o->num_nodes < 1 || o->num_nodes > 4096 || o->node_id < 0 || o->node_id >= o->num_nodes)
    return stela_error(PJRT_Error_Code_INVALID_ARGUMENT,
                       "PJRT_Client_Create: create options node_id %lld and num_nodes %lld: want 0 <= node_id < "
                       "num_nodes",
                       o->node_id, o->num_nodes);
  if (o->num_nodes * c->ndev > 4096)
    return stela_error(PJRT_Error_Code_INVALID_ARGUMENT,
                       "PJRT_Client_Create: %lld processes x %d devices: at most 4096 devices in a job", o->num_nodes,
                       c->ndev);
  c->node = (int)o->node_id;
  c->nodes = (int)o->num_nodes;
  if (c->nodes == 1) return NULL;
  if (args->kv_get_callback == NULL || args->kv_put_callback == NULL)
    return stela_error(PJRT_Error_Code_INVALID_ARGUMENT,
                       "PJRT_Client_Create: num_nodes %d needs the key-value callbacks kv_get_callback and "
                       "kv_put_callback (the job's store, for Gloo's rendezvous)",
                       c->nodes);
  c->kv_get = args->kv_get_callback;
  c->kv_get_arg = args->kv_get_user_arg;
  c->kv_put = args->kv_put_callback;
  c->kv_put_arg = args->kv_put_user_arg;
  char prefix[64], msg[256] = "";
  snprintf(prefix, sizeof prefix, "stela_cpu/gloo/%d/", atomic_fetch_add(&distributed_clients[o->node_id], 1));
  long long timeout = o->coll_timeout_ms > 0 ? o->coll_timeout_ms : 300000;
  c->gloo = stela_gloo_connect(c->node, c->nodes, o->gloo_host, o->gloo_iface, prefix, timeout, kv_get, kv_put, c, msg);
  if (c->gloo == NULL)
    return stela_error(PJRT_Error_Code_FAILED_PRECONDITION, "PJRT_Client_Create: process %d of %d: %s", c->node,
                       c->nodes, msg);
  c->net = (stela_net){.ctx = c->gloo, .proc = c->node, .nprocs = c->nodes, .sendrecv = net_sendrecv};
  /* The devices say which process they are on. */
  for (int i = 0; i < c->ndev; i++) {
    PJRT_Device* d = &c->devices[i];
    char* s = stela_asprintf("StelaCpuDevice(id=%d, process_index=%d, kind=cpu, memory=device, devices=%d)", i,
                             c->node, c->ndev);
    if (s == NULL) return stela_oom();
    free(d->desc.debug_string);
    d->desc.debug_string = s;
  }
  return NULL;
}

PJRT_Error* stela_Client_Create(PJRT_Client_Create_Args* args) {
  STELA_CHECK_ARGS(PJRT_Client_Create_Args, args, client);
  client_options o = {.ndev = 1, .ndev_from = NULL, .timeout_ms = 120000, .node_id = -1, .num_nodes = -1};
  PJRT_Error* err = read_options(args->create_options, args->num_options, &o);
  const char* env = getenv("STELA_CPU_DEVICES");
  if (err == NULL && o.ndev_from == NULL && env != NULL && *env != '\0') {
    /* The option wins over the environment. */
    if (!parse_ll(env, &o.ndev))
      err = stela_error(PJRT_Error_Code_INVALID_ARGUMENT,
                        "PJRT_Client_Create: environment variable STELA_CPU_DEVICES=\"%s\" is not an integer", env);
    o.ndev_from = "environment variable STELA_CPU_DEVICES";
  }
  if (err == NULL && o.ndev_from != NULL && (o.ndev < 1 || o.ndev > STELA_MAX_DEVICES))
    err = stela_error(PJRT_Error_Code_INVALID_ARGUMENT, "PJRT_Client_Create: %s is %lld, want 1 to %d devices",
                      o.ndev_from, o.ndev, STELA_MAX_DEVICES);
  int64_t max_alloc = 0;
  if (err == NULL) err = stela_max_alloc_bytes(&max_alloc);
  PJRT_Client* c = NULL;
  if (err == NULL) err = make_client(&o, &c);
  if (err == NULL && (o.node_id >= 0 || o.num_nodes >= 0)) {
    if (o.node_id < 0 || o.num_nodes < 0)
      err = stela_error(PJRT_Error_Code_INVALID_ARGUMENT,
                        "PJRT_Client_Create: create option %s without %s: a client of several processes needs both",
                        o.node_id >= 0 ? "node_id" : "num_nodes", o.node_id >= 0 ? "num_nodes" : "node_id");
    else if (c != NULL)
      err = join_nodes(c, args, &o);
  }
  free(o.gloo_host);
  free(o.gloo_iface);
  if (err != NULL) {
    if (c != NULL) {
      stela_pool_stop(c->pool);
      stela_client_release(c);
    }
    free(o.worker);
    free(o.worker_id);
    free(o.cache_dir);
    return err;
  }
  c->worker = o.worker;
  c->cache_dir = o.cache_dir;
  c->worker_id = o.worker_id;
  c->max_alloc_bytes = max_alloc;
  args->client = c;
  return NULL;
}

PJRT_Error* stela_Client_Destroy(PJRT_Client_Destroy_Args* args) {
  STELA_CHECK_ARGS(PJRT_Client_Destroy_Args, args, client);
  PJRT_Client* c = args->client;
  if (c == NULL) return NULL;
  pthread_mutex_lock(&c->mu);
  bool again = c->destroyed;
  c->destroyed = true;
  long credit = c->ref_credit; /* no more is taken once destroyed */
  c->ref_credit = 0;
  pthread_mutex_unlock(&c->mu);
  if (credit > 0) stela_client_release_n(c, credit); /* the caller's reference keeps it */
  if (again)
    return stela_error(PJRT_Error_Code_FAILED_PRECONDITION, "PJRT_Client_Destroy: the client was already destroyed");
  /* Buffers still alive lose their memory now (their handles stay valid
     and report deleted); executables keep the client alive until they go. */
  stela_client_delete_buffers(c);
  /* The pool's threads end now; executables that outlive the client run
     serially. */
  stela_pool_stop(c->pool);
  pthread_mutex_lock(&c->mu);
  bool loader = c->blas_loader_started;
  c->blas_loader_started = false;
  pthread_mutex_unlock(&c->mu);
  if (loader) pthread_join(c->blas_loader, NULL);
  stela_client_release(c);
  return NULL;
}

#define NEED_CLIENT(fn, c) \
  if ((c) == NULL) return stela_error(PJRT_Error_Code_INVALID_ARGUMENT, fn ": client is NULL")

PJRT_Error* stela_Client_PlatformName(PJRT_Client_PlatformName_Args* args) {
  STELA_CHECK_ARGS(PJRT_Client_PlatformName_Args, args, platform_name_size);
  NEED_CLIENT("PJRT_Client_PlatformName", args->client);
  args->platform_name = platform_name;
  args->platform_name_size = sizeof(platform_name) - 1;
  return NULL;
}

PJRT_Error* stela_Client_ProcessIndex(PJRT_Client_ProcessIndex_Args* args) {
  STELA_CHECK_ARGS(PJRT_Client_ProcessIndex_Args, args, process_index);
  NEED_CLIENT("PJRT_Client_ProcessIndex", args->client);
  args->process_index = args->client->node;
  return NULL;
}

PJRT_Error* stela_Client_PlatformVersion(PJRT_Client_PlatformVersion_Args* args) {
  STELA_CHECK_ARGS(PJRT_Client_PlatformVersion_Args, args, platform_version_size);
  NEED_CLIENT("PJRT_Client_PlatformVersion", args->client);
  args->platform_version = args->client->platform_version;
  args->platform_version_size = strlen(args->client->platform_version);
  return NULL;
}

PJRT_Error* stela_Client_Devices(PJRT_Client_Devices_Args* args) {
  STELA_CHECK_ARGS(PJRT_Client_Devices_Args, args, num_devices);
  NEED_CLIENT("PJRT_Client_Devices", args->client);
  args->devices = args->client->device_ptrs;
  args->num_devices = (size_t)args->client->ndev;
  return NULL;
}

PJRT_Error* stela_Client_AddressableDevices(PJRT_Client_AddressableDevices_Args* args) {
  STELA_CHECK_ARGS(PJRT_Client_AddressableDevices_Args, args, num_addressable_devices);
  NEED_CLIENT("PJRT_Client_AddressableDevices", args->client);
  args->addressable_devices = args->client->device_ptrs;
  args->num_addressable_devices = (size_t)args->client->ndev;
  return NULL;
}

PJRT_Error* stela_Client_LookupDevice(PJRT_Client_LookupDevice_Args* args) {
  STELA_CHECK_ARGS(PJRT_Client_LookupDevice_Args, args, device);
  PJRT_Client* c = args->client;
  NEED_CLIENT("PJRT_Client_LookupDevice", c);
  if (args->id < 0 || args->id >= c->ndev)
    return stela_error(PJRT_Error_Code_INVALID_ARGUMENT, "PJRT_Client_LookupDevice: no device with id %d (ids are 0 to %d)",
                       args->id, c->ndev - 1);
  args->device = c->device_ptrs[args->id];
  return NULL;
}

PJRT_Error* stela_Client_LookupAddressableDevice(PJRT_Client_LookupAddressableDevice_Args* args) {
  STELA_CHECK_ARGS(PJRT_Client_LookupAddressableDevice_Args, args, addressable_device);
  PJRT_Client* c = args->client;
  NEED_CLIENT("PJRT_Client_LookupAddressableDevice", c);
  if (args->local_hardware_id < 0 || args->local_hardware_id >= c->ndev)
    return stela_error(PJRT_Error_Code_INVALID_ARGUMENT,
                       "PJRT_Client_LookupAddressableDevice: no device with local hardware id %d (ids are 0 to %d)",
                       args->local_hardware_id, c->ndev - 1);
  args->addressable_device = c->device_ptrs[args->local_hardware_id];
  return NULL;
}

PJRT_Error* stela_Client_AddressableMemories(PJRT_Client_AddressableMemories_Args* args) {
  STELA_CHECK_ARGS(PJRT_Client_AddressableMemories_Args, args, num_addressable_memories);
  NEED_CLIENT("PJRT_Client_AddressableMemories", args->client);
  args->addressable_memories = args->client->memory_ptrs;
  args->num_addressable_memories = (size_t)args->client->ndev;
  return NULL;
}

PJRT_Error* stela_Client_DefaultDeviceAssignment(PJRT_Client_DefaultDeviceAssignment_Args* args) {
  STELA_CHECK_ARGS(PJRT_Client_DefaultDeviceAssignment_Args, args, default_assignment);
  PJRT_Client* c = args->client;
  NEED_CLIENT("PJRT_Client_DefaultDeviceAssignment", c);
  long long r = args->num_replicas, p = args->num_partitions;
  if (r < 1 || p < 1)
    return stela_error(PJRT_Error_Code_INVALID_ARGUMENT,
                       "PJRT_Client_DefaultDeviceAssignment: %lld replicas x %lld partitions", r, p);
  if (r * p > c->ndev)
    return stela_error(PJRT_Error_Code_INVALID_ARGUMENT,
                       "PJRT_Client_DefaultDeviceAssignment: %lld replicas x %lld partitions need %lld devices, the "
                       "client has %d (set create option cpu_device_count or STELA_CPU_DEVICES)",
                       r, p, r * p, c->ndev);
  if (args->default_assignment_size < (size_t)(r * p) || args->default_assignment == NULL)
    return stela_error(PJRT_Error_Code_INVALID_ARGUMENT,
                       "PJRT_Client_DefaultDeviceAssignment: default_assignment holds %zu entries, need %lld",
                       args->default_assignment == NULL ? (size_t)0 : args->default_assignment_size, r * p);
  /* Replica-major: entry [r*P + p] is the device of replica r, partition p. */
  for (long long i = 0; i < r * p; i++) args->default_assignment[i] = (int)i;
  return NULL;
}

/* ---- Device descriptions ---- */

#define NEED_DESC(fn, d) \
  if ((d) == NULL) return stela_error(PJRT_Error_Code_INVALID_ARGUMENT, fn ": device_description is NULL")

PJRT_Error* stela_DeviceDescription_Id(PJRT_DeviceDescription_Id_Args* args) {
  STELA_CHECK_ARGS(PJRT_DeviceDescription_Id_Args, args, id);
  NEED_DESC("PJRT_DeviceDescription_Id", args->device_description);
  args->id = args->device_description->id;
  return NULL;
}

PJRT_Error* stela_DeviceDescription_ProcessIndex(PJRT_DeviceDescription_ProcessIndex_Args* args) {
  STELA_CHECK_ARGS(PJRT_DeviceDescription_ProcessIndex_Args, args, process_index);
  NEED_DESC("PJRT_DeviceDescription_ProcessIndex", args->device_description);
  args->process_index = args->device_description->device->client->node;
  return NULL;
}

PJRT_Error* stela_DeviceDescription_Attributes(PJRT_DeviceDescription_Attributes_Args* args) {
  STELA_CHECK_ARGS(PJRT_DeviceDescription_Attributes_Args, args, attributes);
  NEED_DESC("PJRT_DeviceDescription_Attributes", args->device_description);
  args->attributes = args->device_description->attrs;
  args->num_attributes = sizeof(args->device_description->attrs) / sizeof(PJRT_NamedValue);
  return NULL;
}

PJRT_Error* stela_DeviceDescription_Kind(PJRT_DeviceDescription_Kind_Args* args) {
  STELA_CHECK_ARGS(PJRT_DeviceDescription_Kind_Args, args, device_kind_size);
  NEED_DESC("PJRT_DeviceDescription_Kind", args->device_description);
  args->device_kind = device_kind;
  args->device_kind_size = sizeof(device_kind) - 1;
  return NULL;
}

PJRT_Error* stela_DeviceDescription_DebugString(PJRT_DeviceDescription_DebugString_Args* args) {
  STELA_CHECK_ARGS(PJRT_DeviceDescription_DebugString_Args, args, debug_string_size);
  NEED_DESC("PJRT_DeviceDescription_DebugString", args->device_description);
  args->debug_string = args->device_description->debug_string;
  args->debug_string_size = strlen(args->device_description->debug_string);
  return NULL;
}

PJRT_Error* stela_DeviceDescription_ToString(PJRT_DeviceDescription_ToString_Args* args) {
  STELA_CHECK_ARGS(PJRT_DeviceDescription_ToString_Args, args, to_string_size);
  NEED_DESC("PJRT_DeviceDescription_ToString", args->device_description);
  args->to_string = args->device_description->to_string;
  args->to_string_size = strlen(args->device_description->to_string);
  return NULL;
}

/* ---- Devices ---- */

#define NEED_DEVICE(fn, d) \
  if ((d) == NULL) return stela_error(PJRT_Error_Code_INVALID_ARGUMENT, fn ": device is NULL")

PJRT_Error* stela_Device_GetDescription(PJRT_Device_GetDescription_Args* args) {
  STELA_CHECK_ARGS(PJRT_Device_GetDescription_Args, args, device_description);
  NEED_DEVICE("PJRT_Device_GetDescription", args->device);
  args->device_description = &args->device->desc;
  return NULL;
}

PJRT_Error* stela_Device_IsAddressable(PJRT_Device_IsAddressable_Args* args) {
  STELA_CHECK_ARGS(PJRT_Device_IsAddressable_Args, args, is_addressable);
  NEED_DEVICE("PJRT_Device_IsAddressable", args->device);
  args->is_addressable = true;
  return NULL;
}

PJRT_Error* stela_Device_LocalHardwareId(PJRT_Device_LocalHardwareId_Args* args) {
  STELA_CHECK_ARGS(PJRT_Device_LocalHardwareId_Args, args, local_hardware_id);
  NEED_DEVICE("PJRT_Device_LocalHardwareId", args->device);
  /* Unique per device: gopjrt identifies devices by it. */
  args->local_hardware_id = args->device->id;
  return NULL;
}

PJRT_Error* stela_Device_AddressableMemories(PJRT_Device_AddressableMemories_Args* args) {
  STELA_CHECK_ARGS(PJRT_Device_AddressableMemories_Args, args, num_memories);
  NEED_DEVICE("PJRT_Device_AddressableMemories", args->device);
  PJRT_Device* d = args->device;
  args->memories = &d->client->memory_ptrs[d->id];
  args->num_memories = 1;
  return NULL;
}

PJRT_Error* stela_Device_DefaultMemory(PJRT_Device_DefaultMemory_Args* args) {
  STELA_CHECK_ARGS(PJRT_Device_DefaultMemory_Args, args, memory);
  NEED_DEVICE("PJRT_Device_DefaultMemory", args->device);
  args->memory = args->device->memory;
  return NULL;
}

/* ---- Memories ---- */

#define NEED_MEMORY(fn, m) \
  if ((m) == NULL) return stela_error(PJRT_Error_Code_INVALID_ARGUMENT, fn ": memory is NULL")

PJRT_Error* stela_Memory_Id(PJRT_Memory_Id_Args* args) {
  STELA_CHECK_ARGS(PJRT_Memory_Id_Args, args, id);
  NEED_MEMORY("PJRT_Memory_Id", args->memory);
  args->id = args->memory->id;
  return NULL;
}

PJRT_Error* stela_Memory_Kind(PJRT_Memory_Kind_Args* args) {
  STELA_CHECK_ARGS(PJRT_Memory_Kind_Args, args, kind_size);
  NEED_MEMORY("PJRT_Memory_Kind", args->memory);
  args->kind = memory_kind;
  args->kind_size = sizeof(memory_kind) - 1;
  return NULL;
}

PJRT_Error* stela_Memory_Kind_Id(PJRT_Memory_Kind_Id_Args* args) {
  STELA_CHECK_ARGS(PJRT_Memory_Kind_Id_Args, args, kind_id);
  NEED_MEMORY("PJRT_Memory_Kind_Id", args->memory);
  args->kind_id = 0;
  return NULL;
}

PJRT_Error* stela_Memory_DebugString(PJRT_Memory_DebugString_Args* args) {
  STELA_CHECK_ARGS(PJRT_Memory_DebugString_Args, args, debug_string_size);
  NEED_MEMORY("PJRT_Memory_DebugString", args->memory);
  args->debug_string = args->memory->debug_string;
  args->debug_string_size = strlen(args->memory->debug_string);
  return NULL;
}

PJRT_Error* stela_Memory_ToString(PJRT_Memory_ToString_Args* args) {
  STELA_CHECK_ARGS(PJRT_Memory_ToString_Args, args, to_string_size);
  NEED_MEMORY("PJRT_Memory_ToString", args->memory);
  args->to_string = args->memory->to_string;
  args->to_string_size = strlen(args->memory->to_string);
  return NULL;
}

PJRT_Error* stela_Memory_AddressableByDevices(PJRT_Memory_AddressableByDevices_Args* args) {
  STELA_CHECK_ARGS(PJRT_Memory_AddressableByDevices_Args, args, num_devices);
  NEED_MEMORY("PJRT_Memory_AddressableByDevices", args->memory);
  PJRT_Memory* m = args->memory;
  args->devices = &m->client->device_ptrs[m->id];
  args->num_devices = 1;
  return NULL;
}
