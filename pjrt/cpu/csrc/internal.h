/*
 * internal.h: the Stela CPU PJRT plugin's own declarations, shared by its
 * translation units. Nothing here is visible outside the plugin: it is
 * built with -fvisibility=hidden and exports only GetPjrtApi.
 *
 * Object model (pjrt-c-api.md sections 2.5 and 2.6):
 *  - A PJRT_Client is reference counted. Its user holds one reference
 *    (dropped by PJRT_Client_Destroy); every buffer and loaded executable
 *    holds another, so executables may be destroyed after the client, as
 *    gopjrt does from its cleanups. Devices, descriptions and memories are
 *    part of the client and live as long as it.
 *  - A buffer's bytes are a reference-counted stela_storage. Readers
 *    (execute, to-host copies) take a reference under the buffer's mutex,
 *    so PJRT_Buffer_Delete on another thread never frees memory in use.
 *  - A compiled program (the dlopen'ed object and its signature) is a
 *    reference-counted stela_program shared by the loaded executable and
 *    every PJRT_Executable obtained from it; dlclose runs when the last
 *    one goes.
 *  - Execution is synchronous: events are created already complete.
 *    Events still have a mutex and a condition variable so that an
 *    executing thread could complete them later.
 */
#ifndef STELA_CPU_INTERNAL_H_
#define STELA_CPU_INTERNAL_H_

#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "stela_pjrt.h"
#include "stela_rt.h"
#include "stela_gloo.h"

#define STELA_PLUGIN_VERSION "0.1.0"
#define STELA_MAX_DEVICES 4096
#define STELA_MAX_RANK 64
#define STELA_ALIGN 64

/* ---- Argument checks (pjrt-c-api.md 2.2). ---- */

/* The end of field f of args struct S: a caller whose struct_size stops
   before it does not know the field. */
#define STELA_FIELD_END(S, f) (offsetof(S, f) + sizeof(((S*)0)->f))

/* HAS(S, a, f): the caller's args struct reaches field f. */
#define STELA_HAS(S, a, f) ((a)->struct_size >= STELA_FIELD_END(S, f))

/* CHECK_ARGS(S, a, f): return INVALID_ARGUMENT unless args a is non-NULL
   and reaches field f (the last field this function needs). A larger
   struct_size (a newer caller) is always accepted. */
#define STELA_CHECK_ARGS(S, a, f)                                                        \
  do {                                                                                   \
    if ((a) == NULL) return stela_error(PJRT_Error_Code_INVALID_ARGUMENT, #S " is NULL"); \
    if (!STELA_HAS(S, a, f))                                                             \
      return stela_error(PJRT_Error_Code_INVALID_ARGUMENT,                               \
                         #S ".struct_size is %zu, need at least %zu (up to field " #f ")", \
                         (size_t)(a)->struct_size, (size_t)STELA_FIELD_END(S, f));       \
  } while (0)

/* ---- Errors (error.c). ---- */

struct PJRT_Error {
  PJRT_Error_Code code;
  bool is_static; /* the out-of-memory error: never freed */
  size_t len;
  char msg[];
};

PJRT_Error* stela_error(PJRT_Error_Code code, const char* fmt, ...) __attribute__((format(printf, 2, 3)));
PJRT_Error* stela_verror(PJRT_Error_Code code, const char* fmt, va_list ap);
PJRT_Error* stela_error_copy(PJRT_Error_Code code, const char* msg, size_t len);
PJRT_Error* stela_oom(void);
void stela_error_free(PJRT_Error* err);

/* ---- Events (error.c). ---- */

PJRT_Event* stela_event_new(void);               /* pending; NULL on OOM */
PJRT_Event* stela_event_ready(const PJRT_Error* err); /* complete with err (copied) or OK */
void stela_event_complete(PJRT_Event* ev, const PJRT_Error* err);

/* ---- Element types (buffer.c). ---- */

/* Bytes per element of a PJRT buffer type, 0 if the plugin cannot hold it
   (INVALID, TOKEN, sub-byte types, unknown numbers). */
size_t stela_type_size(PJRT_Buffer_Type t);
const char* stela_type_name(PJRT_Buffer_Type t);
/* NULL if buffers of type t can exist, else the error to return. */
PJRT_Error* stela_check_type(const char* fn, PJRT_Buffer_Type t);
/* The byte size of a dense array, or an error for negative dims or
   overflow. */
PJRT_Error* stela_check_shape(const char* fn, const char* what, const int64_t* dims, size_t rank, size_t esize,
                              size_t* nbytes);

/* ---- Storage: a buffer's bytes (buffer.c). ---- */

typedef struct stela_storage {
  atomic_long refs;
  void* data;
  size_t size;
  /* For views of caller memory: called (once) when the storage goes. */
  void (*on_delete)(void* data, void* arg);
  void* on_delete_arg;
  bool owned;       /* data was allocated by the plugin */
  bool inline_data; /* data follows the header in one small block */
  bool in_result;   /* an execution result's block (stela_storage_new_result) */
  /* For in_result: the block goes when both its buffer and the last
     reference to the data are gone (one hold each); block_size bytes. */
  atomic_int holds;
  uint32_t block_size;
} stela_storage;
_Static_assert(sizeof(stela_storage) <= STELA_ALIGN, "a storage header fits in one alignment unit");

/* size bytes, 64-byte aligned, never NULL data (even for size 0). */
stela_storage* stela_storage_new(size_t size);
/* The storage of an execution's result of the given size and rank, to be
   passed to stela_buffer_new (once). A small result's buffer, storage
   header, dimensions and data then share one block: destroying the
   buffer touches three cache lines of one block, which its destroyer
   can prefetch (pjrt_cgo.h's stela_destroy_buffers prefetches a
   buffer's first three lines). */
stela_storage* stela_storage_new_result(size_t size, size_t rank);
/* Storages whose memory the plugin allocated and has not freed yet, over
   all clients (stela_cpu_live_buffers); exact when no thread is making or
   freeing one. */
long long stela_live_count(void);
/* The bytes of those storages (their sizes, stela_cpu_live_bytes). */
long long stela_live_bytes(void);
/* Frees the blocks the buffer memory cache keeps (when the last client
   goes). */
void stela_buffer_cache_drain(void);
void stela_storage_retain(stela_storage* s);
void stela_storage_release(stela_storage* s);
void* stela_aligned_alloc(size_t size);

/* ---- Client, devices, memories (client.c). ---- */

struct PJRT_DeviceDescription {
  PJRT_Device* device;
  int id;
  char* to_string;
  char* debug_string;
  PJRT_NamedValue attrs[3];
  int64_t coords[1];
};

struct PJRT_Device {
  PJRT_Client* client;
  int id;
  PJRT_DeviceDescription desc;
  PJRT_Memory* memory;
};

struct PJRT_Memory {
  PJRT_Client* client;
  int id;
  PJRT_Device* device;
  char* to_string;
  char* debug_string;
};

struct PJRT_Client {
  atomic_long refs;
  int ndev;
  PJRT_Device* devices;      /* [ndev] */
  PJRT_Device** device_ptrs; /* [ndev] */
  PJRT_Memory* memories;     /* [ndev] */
  PJRT_Memory** memory_ptrs; /* [ndev] */
  char platform_version[96];

  /* Compile settings (create options, else the environment). */
  char* worker;    /* NULL: resolve at compile time */
  char* worker_id; /* the worker's build identity (Go build ID); NULL: path, size and mtime stand in */
  char* cache_dir; /* NULL: resolve at compile time */
  long long compile_timeout_ms;
  /* The largest array one buffer or program result may have, in bytes
     (STELA_MAX_ALLOC_BYTES when the client was created; default the
     machine's physical memory); 0: no limit. */
  int64_t max_alloc_bytes;

  /* The runtime compiled programs get (stela_rt.h): a thread pool of
     create option cpu_threads, else $STELA_CPU_THREADS, else the online
     CPUs; stopped by PJRT_Client_Destroy, freed with the client. */
  stela_pool* pool;
  stela_rt rt;
  bool counted; /* in the live client count (client.c) */
  /* A thread loading the BLAS library ahead of a program's first
     execution (compile.c), joined by PJRT_Client_Destroy; under mu. */
  pthread_t blas_loader;
  bool blas_loader_started;

  /* Live buffers, so that PJRT_Client_Destroy can free their memory:
     gopjrt never destroys buffers once the client is gone. An array, each
     buffer knowing its slot: unlinking from a list touched the two
     neighbours, buffers made long before and cold in cache, on every
     free. */
  pthread_mutex_t mu;
  PJRT_Buffer** live;
  size_t nlive, caplive;
  bool destroyed;
  /* Client references taken ahead for new buffers (stela_buffer_new),
     under mu: a locked add per 64 buffers instead of one per buffer
     (each is a dozen nanoseconds on an eager op). PJRT_Client_Destroy
     drops those not given out. */
  long ref_credit;

  /* A client of a job of several processes (create options node_id and
     num_nodes, and the key-value callbacks): its devices are devices
     node*ndev ... node*ndev+ndev-1 of the job, device assignments name
     the job's devices (process id / ndev, local id % ndev), and
     collectives reach the other processes through Gloo (gloo.cc). */
  int node, nodes; /* 0 and 1 for a client of one process */
  stela_gloo* gloo;
  stela_net net; /* over gloo */
  PJRT_KeyValueGetCallback kv_get;
  void* kv_get_arg;
  PJRT_KeyValuePutCallback kv_put;
  void* kv_put_arg;
};

void stela_client_retain(PJRT_Client* c);
void stela_client_release(PJRT_Client* c);
/* Drops n references at once (n > 0). */
void stela_client_release_n(PJRT_Client* c, long n);
/* Whether d is one of c's devices, m one of c's memories (false for NULL). */
bool stela_client_owns_device(const PJRT_Client* c, const PJRT_Device* d);
bool stela_client_owns_memory(const PJRT_Client* c, const PJRT_Memory* m);

/* ---- Buffers (buffer.c). ---- */

struct PJRT_Buffer {
  /* Destroying a buffer reads its first two cache lines (and, for an
     execution's result, the storage header that follows the struct):
     the fields Destroy reads come first, so that a prefetch of the
     buffer's lines covers them (eager dispatch destroys buffers that a
     garbage collection found dead long after they were made, whose
     memory is no longer in cache). */
  PJRT_Client* client;
  stela_storage* storage;     /* NULL once deleted */
  stela_storage* ext_storage; /* held while external references exist */
  uint32_t slot;              /* index in client->live, under client->mu */
  int32_t ext_refs;
  PJRT_Buffer_Type type;
  uint16_t esize;
  bool embedded; /* the struct is the front of its storage's result block */
  size_t rank;
  PJRT_Device* device;
  size_t nbytes;

  pthread_mutex_t mu;
  int64_t* dims; /* [rank], then minor_to_major [rank] */
  int64_t* minor_to_major;
};
_Static_assert(sizeof(PJRT_Buffer) <= 2 * STELA_ALIGN, "a buffer is two cache lines");

/* A new buffer owning one reference to storage s (taken over). */
PJRT_Error* stela_buffer_new(PJRT_Client* c, PJRT_Device* dev, PJRT_Buffer_Type type, const int64_t* dims,
                             size_t rank, stela_storage* s, PJRT_Buffer** out);
/* A new reference to the buffer's storage, or NULL if it was deleted. */
stela_storage* stela_buffer_acquire(PJRT_Buffer* b);
/* Destroys n buffers (PJRT_Buffer_Destroy of each; NULL entries
   skipped), taking each client's lock once per run of its buffers. */
void stela_buffers_free(PJRT_Buffer* const* bufs, size_t n);
/* Drops the storage of every live buffer (client destroy). */
void stela_client_delete_buffers(PJRT_Client* c);

/* ---- Compiled programs and executables (compile.c, execute.c). ---- */

typedef struct stela_param {
  PJRT_Buffer_Type type;
  size_t esize;
  size_t rank;
  int64_t* dims;
  size_t nbytes;
} stela_param;

typedef struct stela_program {
  atomic_long refs;
  void* dl;
  int dl_fd; /* the descriptor dl was loaded through (cache.c), closed after dlclose; -1: none */
  stela_entry_fn entry;
  int rt_uses; /* stela_rt_uses (STELA_RT_USES_*), 0 when not exported */
  /* stela_args_any_align: the program reads its arguments at any address
     aligned to their element size (not only 64-byte aligned ones), so a
     view of caller memory is read in place. 0 for objects that predate it. */
  int args_any_align;
  /* The program the object was compiled from after the worker's own
     rewriting (the SPMD partitioner's per-device StableHLO), the
     object's stela_optimized_program, NULL when it exports none. */
  const char* optimized;
  size_t nargs, nres;
  stela_param* params; /* nargs parameters, then nres results */
  int64_t* all_dims;   /* storage of every params[i].dims */
  /* Executable queries, computed once. */
  PJRT_Buffer_Type* out_types;
  int64_t* out_dims;
  size_t* out_ranks;
  const char** out_kinds;
  size_t* out_kind_sizes;
  char* name;
  size_t name_len;
  char fingerprint[65];
  int64_t code_size;
  int64_t arg_bytes, res_bytes;
  /* Input/output aliasing (the program's stela_aliases): res_alias[j] is
     the argument whose buffer result j lives in, arg_alias[i] the result
     argument i holds, -1 for none; both NULL when nothing is aliased.
     alias_bytes is the aliased results' size. */
  int* res_alias;
  int* arg_alias;
  int64_t alias_bytes;
} stela_program;

void stela_program_retain(stela_program* p);
void stela_program_release(stela_program* p);

struct PJRT_Executable {
  stela_program* prog;
  size_t num_replicas, num_partitions;
};

/* An execute context (PJRT_ExecuteContext_Create): a cancellation flag
   that executions given it in PJRT_ExecuteOptions.context watch, and
   that stela_cpu_execute_context_cancel sets, from any thread
   (docs/cpu-plugin.md, "Deadlines and cancellation"). 0 while not
   cancelled, else the PJRT error code the executions return. */
struct PJRT_ExecuteContext {
  _Atomic int32_t cancel;
};

struct PJRT_LoadedExecutable {
  PJRT_Client* client;
  stela_program* prog;
  bool portable;
  size_t num_replicas, num_partitions;
  size_t ndev;
  PJRT_Device** devices; /* [ndev], replica-major; empty when portable */
  atomic_bool deleted;
  /* A client of several processes: the execution's devices are
     num_replicas x num_partitions of the job's, owner[d] the process of
     execution index d; devices (ndev of them) are this process's, at
     execution indices local[k]. NULL otherwise. */
  int32_t* owner;
  int64_t* local;
};

/* Takes over the program reference. */
PJRT_Error* stela_loaded_executable_new(PJRT_Client* c, stela_program* prog, bool portable, size_t replicas,
                                        size_t partitions, const int* assignment, PJRT_LoadedExecutable** out);

/* ---- What JAX (XLA's C-API client) needs beyond gopjrt (jax.c). ---- */

PJRT_Error* stela_LoadedExecutable_GetDeviceAssignment(PJRT_LoadedExecutable_GetDeviceAssignment_Args* args);

/* ---- Small helpers (util.c). ---- */

char* stela_strdup(const char* s);
char* stela_strndup(const char* s, size_t n);
char* stela_asprintf(const char* fmt, ...) __attribute__((format(printf, 1, 2)));
bool stela_name_is(const char* name, size_t name_size, const char* want);
/* Parses a size as internal/env.ParseSize does: a whole number of bytes,
   optionally followed by K, M, G or T (powers of 1024, "KiB" and "KB"
   too); false when s is not one or overflows an int64. */
bool stela_parse_size(const char* s, int64_t* out);
/* Writes b with a binary unit as internal/env.FormatSize does: "4 TiB",
   "1.5 GiB", "100 bytes". */
void stela_format_size(char* buf, size_t n, int64_t b);

/* ---- The allocation limit (client.c). ---- */

/* STELA_MAX_ALLOC_BYTES read as internal/env.MaxAllocBytes reads it:
   unset or empty is the machine's physical memory (1 TiB where sysconf
   cannot say), 0 no limit; an error for a value that is not a size. */
PJRT_Error* stela_max_alloc_bytes(int64_t* out);
/* RESOURCE_EXHAUSTED, naming what ("result 0"), its type and shape
   (F32[1024,1024]) and the bytes, when an array of nbytes is past the
   client's limit; NULL otherwise. Called before allocating. */
PJRT_Error* stela_check_alloc(const PJRT_Client* c, const char* fn, const char* what, PJRT_Buffer_Type type,
                              const int64_t* dims, size_t rank, size_t nbytes);

/* SHA-256 (util.c), for the compile cache key. */
typedef struct stela_sha256 {
  uint32_t h[8];
  uint64_t len;
  unsigned char buf[64];
  size_t nbuf;
} stela_sha256;
void stela_sha256_init(stela_sha256* s);
void stela_sha256_update(stela_sha256* s, const void* data, size_t n);
void stela_sha256_hex(stela_sha256* s, char out[65]);

/* ---- The compile cache on disk (cache.c; docs/cache.md). ---- */

typedef struct stela_cache {
  char* root;        /* NULL: caching is off */
  char* objects;     /* <root>/objects */
  int objects_fd;    /* open on objects/; -1 when off */
  char* tmp;         /* <root>/tmp: compiles' temporary directories */
  int64_t max_bytes; /* STELA_CACHE_MAX_BYTES; 0: no limit */
} stela_cache;

/* Resolves, creates (0700) and checks the cache root (configured: the
   client's stela_cache_dir, or NULL). An unsafe root is an error that
   says how to fix it; caching off leaves c->root NULL. */
PJRT_Error* stela_cache_open(const char* configured, stela_cache* c);
void stela_cache_close(stela_cache* c);
/* 1 with a verified entry: its object's bytes (*elf, malloc; *elf_n of
   them), its signature (*sig, malloc) and the descriptor it was read
   through (*fd). 0 when there is none; a bad entry is removed with a
   warning on stderr, and 0. */
int stela_cache_get(stela_cache* c, const char* key, unsigned char** elf, size_t* elf_n, char** sig, int* fd);
/* Removes an entry, warning on stderr with why. */
void stela_cache_drop(stela_cache* c, const char* key, const char* why);
/* Writes an entry atomically (temporary name, fsync, rename); a failure
   is a warning. */
void stela_cache_put(stela_cache* c, const char* key, const unsigned char* elf, size_t n, const char* sig);
/* Applies the size limit (least recently used first, never keep) and
   removes what dead compiles left. */
void stela_cache_trim(stela_cache* c, const char* keep);
/* A new temporary directory for a compile: under <root>/tmp, else
   $TMPDIR. */
PJRT_Error* stela_compile_dir(const stela_cache* c, char** out);
void stela_remove_tree(const char* dir);
/* Reads a whole regular file, not following a symbolic link. */
PJRT_Error* stela_read_file(const char* path, unsigned char** data, size_t* n, int* fd);
/* dlopen of exactly these (verified) bytes: a sealed memfd, else the
   descriptor they were read from; NULL with *why (malloc) on failure.
   *keep is a descriptor to close after the handle's dlclose. */
void* stela_dlopen_verified(const unsigned char* data, size_t n, int file_fd, int* keep, char** why);
void stela_cache_warn(const char* fmt, ...) __attribute__((format(printf, 1, 2)));

/* ---- The PJRT functions, by translation unit. ---- */

/* error.c */
void stela_Error_Destroy(PJRT_Error_Destroy_Args* args);
void stela_Error_Message(PJRT_Error_Message_Args* args);
PJRT_Error* stela_Error_GetCode(PJRT_Error_GetCode_Args* args);
PJRT_Error* stela_Event_Destroy(PJRT_Event_Destroy_Args* args);
PJRT_Error* stela_Event_IsReady(PJRT_Event_IsReady_Args* args);
PJRT_Error* stela_Event_Error(PJRT_Event_Error_Args* args);
PJRT_Error* stela_Event_Await(PJRT_Event_Await_Args* args);
PJRT_Error* stela_Event_OnReady(PJRT_Event_OnReady_Args* args);

/* client.c */
PJRT_Error* stela_Client_Create(PJRT_Client_Create_Args* args);
PJRT_Error* stela_Client_Destroy(PJRT_Client_Destroy_Args* args);
PJRT_Error* stela_Client_PlatformName(PJRT_Client_PlatformName_Args* args);
PJRT_Error* stela_Client_ProcessIndex(PJRT_Client_ProcessIndex_Args* args);
PJRT_Error* stela_Client_PlatformVersion(PJRT_Client_PlatformVersion_Args* args);
PJRT_Error* stela_Client_Devices(PJRT_Client_Devices_Args* args);
PJRT_Error* stela_Client_AddressableDevices(PJRT_Client_AddressableDevices_Args* args);
PJRT_Error* stela_Client_LookupDevice(PJRT_Client_LookupDevice_Args* args);
PJRT_Error* stela_Client_LookupAddressableDevice(PJRT_Client_LookupAddressableDevice_Args* args);
PJRT_Error* stela_Client_AddressableMemories(PJRT_Client_AddressableMemories_Args* args);
PJRT_Error* stela_Client_DefaultDeviceAssignment(PJRT_Client_DefaultDeviceAssignment_Args* args);
PJRT_Error* stela_DeviceDescription_Id(PJRT_DeviceDescription_Id_Args* args);
PJRT_Error* stela_DeviceDescription_ProcessIndex(PJRT_DeviceDescription_ProcessIndex_Args* args);
PJRT_Error* stela_DeviceDescription_Attributes(PJRT_DeviceDescription_Attributes_Args* args);
PJRT_Error* stela_DeviceDescription_Kind(PJRT_DeviceDescription_Kind_Args* args);
PJRT_Error* stela_DeviceDescription_DebugString(PJRT_DeviceDescription_DebugString_Args* args);
PJRT_Error* stela_DeviceDescription_ToString(PJRT_DeviceDescription_ToString_Args* args);
PJRT_Error* stela_Device_GetDescription(PJRT_Device_GetDescription_Args* args);
PJRT_Error* stela_Device_IsAddressable(PJRT_Device_IsAddressable_Args* args);
PJRT_Error* stela_Device_LocalHardwareId(PJRT_Device_LocalHardwareId_Args* args);
PJRT_Error* stela_Device_AddressableMemories(PJRT_Device_AddressableMemories_Args* args);
PJRT_Error* stela_Device_DefaultMemory(PJRT_Device_DefaultMemory_Args* args);
PJRT_Error* stela_Memory_Id(PJRT_Memory_Id_Args* args);
PJRT_Error* stela_Memory_Kind(PJRT_Memory_Kind_Args* args);
PJRT_Error* stela_Memory_Kind_Id(PJRT_Memory_Kind_Id_Args* args);
PJRT_Error* stela_Memory_DebugString(PJRT_Memory_DebugString_Args* args);
PJRT_Error* stela_Memory_ToString(PJRT_Memory_ToString_Args* args);
PJRT_Error* stela_Memory_AddressableByDevices(PJRT_Memory_AddressableByDevices_Args* args);

/* buffer.c */
PJRT_Error* stela_Client_BufferFromHostBuffer(PJRT_Client_BufferFromHostBuffer_Args* args);
PJRT_Error* stela_Client_CreateViewOfDeviceBuffer(PJRT_Client_CreateViewOfDeviceBuffer_Args* args);
PJRT_Error* stela_Buffer_Destroy(PJRT_Buffer_Destroy_Args* args);
PJRT_Error* stela_Buffer_ElementType(PJRT_Buffer_ElementType_Args* args);
PJRT_Error* stela_Buffer_Dimensions(PJRT_Buffer_Dimensions_Args* args);
PJRT_Error* stela_Buffer_UnpaddedDimensions(PJRT_Buffer_UnpaddedDimensions_Args* args);
PJRT_Error* stela_Buffer_DynamicDimensionIndices(PJRT_Buffer_DynamicDimensionIndices_Args* args);
PJRT_Error* stela_Buffer_GetMemoryLayout(PJRT_Buffer_GetMemoryLayout_Args* args);
PJRT_Error* stela_Buffer_OnDeviceSizeInBytes(PJRT_Buffer_OnDeviceSizeInBytes_Args* args);
PJRT_Error* stela_Buffer_Device(PJRT_Buffer_Device_Args* args);
PJRT_Error* stela_Buffer_Memory(PJRT_Buffer_Memory_Args* args);
PJRT_Error* stela_Buffer_Delete(PJRT_Buffer_Delete_Args* args);
PJRT_Error* stela_Buffer_IsDeleted(PJRT_Buffer_IsDeleted_Args* args);
PJRT_Error* stela_Buffer_CopyToDevice(PJRT_Buffer_CopyToDevice_Args* args);
PJRT_Error* stela_Buffer_CopyToMemory(PJRT_Buffer_CopyToMemory_Args* args);
PJRT_Error* stela_Buffer_ToHostBuffer(PJRT_Buffer_ToHostBuffer_Args* args);
PJRT_Error* stela_Buffer_IsOnCpu(PJRT_Buffer_IsOnCpu_Args* args);
PJRT_Error* stela_Buffer_ReadyEvent(PJRT_Buffer_ReadyEvent_Args* args);
PJRT_Error* stela_Buffer_UnsafePointer(PJRT_Buffer_UnsafePointer_Args* args);
PJRT_Error* stela_Buffer_IncreaseExternalReferenceCount(PJRT_Buffer_IncreaseExternalReferenceCount_Args* args);
PJRT_Error* stela_Buffer_DecreaseExternalReferenceCount(PJRT_Buffer_DecreaseExternalReferenceCount_Args* args);
PJRT_Error* stela_Buffer_OpaqueDeviceMemoryDataPointer(PJRT_Buffer_OpaqueDeviceMemoryDataPointer_Args* args);

/* compile.c */
PJRT_Error* stela_Client_Compile(PJRT_Client_Compile_Args* args);

/* execute.c */
PJRT_Error* stela_Executable_Destroy(PJRT_Executable_Destroy_Args* args);
PJRT_Error* stela_Executable_Name(PJRT_Executable_Name_Args* args);
PJRT_Error* stela_Executable_NumReplicas(PJRT_Executable_NumReplicas_Args* args);
PJRT_Error* stela_Executable_NumPartitions(PJRT_Executable_NumPartitions_Args* args);
PJRT_Error* stela_Executable_NumOutputs(PJRT_Executable_NumOutputs_Args* args);
PJRT_Error* stela_Executable_SizeOfGeneratedCodeInBytes(PJRT_Executable_SizeOfGeneratedCodeInBytes_Args* args);
PJRT_Error* stela_Executable_OutputMemoryKinds(PJRT_Executable_OutputMemoryKinds_Args* args);
PJRT_Error* stela_Executable_OutputElementTypes(PJRT_Executable_OutputElementTypes_Args* args);
PJRT_Error* stela_Executable_OutputDimensions(PJRT_Executable_OutputDimensions_Args* args);
PJRT_Error* stela_Executable_Fingerprint(PJRT_Executable_Fingerprint_Args* args);
PJRT_Error* stela_Executable_OptimizedProgram(PJRT_Executable_OptimizedProgram_Args* args);
PJRT_Error* stela_Executable_GetCompiledMemoryStats(PJRT_Executable_GetCompiledMemoryStats_Args* args);
PJRT_Error* stela_LoadedExecutable_Destroy(PJRT_LoadedExecutable_Destroy_Args* args);
PJRT_Error* stela_LoadedExecutable_GetExecutable(PJRT_LoadedExecutable_GetExecutable_Args* args);
PJRT_Error* stela_LoadedExecutable_AddressableDevices(PJRT_LoadedExecutable_AddressableDevices_Args* args);
PJRT_Error* stela_LoadedExecutable_Delete(PJRT_LoadedExecutable_Delete_Args* args);
PJRT_Error* stela_LoadedExecutable_IsDeleted(PJRT_LoadedExecutable_IsDeleted_Args* args);
PJRT_Error* stela_LoadedExecutable_Execute(PJRT_LoadedExecutable_Execute_Args* args);
PJRT_Error* stela_ExecuteContext_Create(PJRT_ExecuteContext_Create_Args* args);
PJRT_Error* stela_ExecuteContext_Destroy(PJRT_ExecuteContext_Destroy_Args* args);

#endif /* STELA_CPU_INTERNAL_H_ */
