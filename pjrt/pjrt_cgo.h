/* pjrt_cgo.h: small C helpers for package pjrt's cgo code: dlopen, reading
   the PJRT_Api table safely, and access to anonymous union members, which
   cgo cannot name. Included by the preamble of every cgo file of the
   package; everything here is static inline. */
#ifndef STELA_PJRT_CGO_H_
#define STELA_PJRT_CGO_H_

#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

#include "stela_pjrt.h"

/* dlopen and dlerror must run on one OS thread (dlerror is thread-local),
   so both happen in one C call. *err is malloc'ed or NULL. */
static inline void* stela_dlopen(const char* path, int now, char** err) {
  void* h = dlopen(path, (now ? RTLD_NOW : RTLD_LAZY) | RTLD_LOCAL);
  if (h == NULL) {
    const char* e = dlerror();
    *err = strdup(e ? e : "dlopen failed");
  }
  return h;
}

static inline const PJRT_Api* stela_get_api(void* handle, char** err) {
  dlerror();
  void* sym = dlsym(handle, "GetPjrtApi");
  if (sym == NULL) {
    const char* e = dlerror();
    *err = strdup(e ? e : "no symbol GetPjrtApi");
    return NULL;
  }
  const PJRT_Api* (*get)(void);
  memcpy(&get, &sym, sizeof get);
  return get();
}

/* stela_api_head reads the fields every version of PJRT_Api has. */
static inline void stela_api_head(const PJRT_Api* api, size_t* size, int* major, int* minor) {
  *size = api->struct_size;
  *major = api->pjrt_api_version.major_version;
  *minor = api->pjrt_api_version.minor_version;
}

/* stela_has_slot reports whether slot i lies within the plugin's table (an
   older plugin's is shorter) and is filled in. */
static inline int stela_has_slot(const PJRT_Api* api, size_t i) {
  size_t off = offsetof(PJRT_Api, PJRT_Error_Destroy) + i * sizeof(void (*)(void));
  void (*fn)(void);
  if (off + sizeof fn > api->struct_size) return 0;
  memcpy(&fn, (const char*)api + off, sizeof fn);
  return fn != NULL;
}

/* Named values. */
static inline void stela_nv_init(PJRT_NamedValue* nv, const char* name, size_t name_size) {
  memset(nv, 0, sizeof *nv);
  nv->struct_size = PJRT_NamedValue_STRUCT_SIZE;
  nv->name = name;
  nv->name_size = name_size;
}
static inline void stela_nv_set_string(PJRT_NamedValue* nv, const char* v, size_t n) {
  nv->type = PJRT_NamedValue_kString;
  nv->string_value = v;
  nv->value_size = n;
}
static inline void stela_nv_set_int64(PJRT_NamedValue* nv, int64_t v) {
  nv->type = PJRT_NamedValue_kInt64;
  nv->int64_value = v;
  nv->value_size = 1;
}
static inline void stela_nv_set_int64_list(PJRT_NamedValue* nv, const int64_t* v, size_t n) {
  nv->type = PJRT_NamedValue_kInt64List;
  nv->int64_array_value = v;
  nv->value_size = n;
}
static inline void stela_nv_set_float(PJRT_NamedValue* nv, float v) {
  nv->type = PJRT_NamedValue_kFloat;
  nv->float_value = v;
  nv->value_size = 1;
}
static inline void stela_nv_set_bool(PJRT_NamedValue* nv, bool v) {
  nv->type = PJRT_NamedValue_kBool;
  nv->bool_value = v;
  nv->value_size = 1;
}
static inline const char* stela_nv_string(const PJRT_NamedValue* nv) { return nv->string_value; }
static inline int64_t stela_nv_int64(const PJRT_NamedValue* nv) { return nv->int64_value; }
static inline const int64_t* stela_nv_int64_list(const PJRT_NamedValue* nv) { return nv->int64_array_value; }
static inline float stela_nv_float(const PJRT_NamedValue* nv) { return nv->float_value; }
static inline bool stela_nv_bool(const PJRT_NamedValue* nv) { return nv->bool_value; }

/* stela_nv_at indexes an array of named values by the caller's struct size:
   the array's stride is sizeof(PJRT_NamedValue) of the plugin's header,
   which has been 56 bytes in every version so far. */
static inline const PJRT_NamedValue* stela_nv_at(const PJRT_NamedValue* a, size_t i) { return &a[i]; }

/* stela_layout_row_major fills a dense row-major Tiled layout (no tiles):
   minor_to_major is [rank-1, ..., 0]. */
static inline void stela_layout_row_major(PJRT_Buffer_MemoryLayout* l, const int64_t* minor_to_major, size_t rank) {
  memset(l, 0, sizeof *l);
  l->struct_size = PJRT_Buffer_MemoryLayout_STRUCT_SIZE;
  l->type = PJRT_Buffer_MemoryLayout_Type_Tiled;
  l->tiled.struct_size = PJRT_Buffer_MemoryLayout_Tiled_STRUCT_SIZE;
  l->tiled.minor_to_major = rank ? minor_to_major : NULL;
  l->tiled.minor_to_major_size = rank;
}

/* A non-NULL address for the data of an empty array. */
static inline const void* stela_empty_data(void) {
  static const int64_t empty[1];
  return empty;
}

/* Test hook: call `int fn(void)` found with dlsym. */
static inline int stela_call_int_fn(void* fn) {
  int (*f)(void);
  memcpy(&f, &fn, sizeof f);
  return f();
}

/* Prefetches, for writing, the first three cache lines of a buffer about
   to be destroyed (the Stela CPU plugin keeps everything Destroy touches
   there). A prefetch never faults, whatever the plugin's layout. */
static inline void stela_prefetch_buffer(PJRT_Buffer* b) {
  for (int line = 0; line < 3; line++) __builtin_prefetch((const char*)b + 64 * line, 1);
}

/* Destroys the n buffers of bufs, ignoring errors (a buffer's destroy
   has no one to report to). They are dead buffers found by Go's
   collector, made long ago and cold in cache: each is prefetched a few
   buffers ahead of its destroy, so that the misses overlap instead of
   waiting one behind the other (deadbuffers.go). */
static inline void stela_destroy_buffers(const PJRT_Api* api, PJRT_Buffer* const* bufs, size_t n) {
  enum { AHEAD = 6 };
  for (size_t i = 0; i < n && i < AHEAD; i++) stela_prefetch_buffer(bufs[i]);
  for (size_t i = 0; i < n; i++) {
    if (i + AHEAD < n) stela_prefetch_buffer(bufs[i + AHEAD]);
    PJRT_Buffer_Destroy_Args a;
    memset(&a, 0, sizeof a);
    a.struct_size = PJRT_Buffer_Destroy_Args_STRUCT_SIZE;
    a.buffer = bufs[i];
    PJRT_Error* err = api->PJRT_Buffer_Destroy(&a);
    if (err != NULL) {
      PJRT_Error_Destroy_Args d;
      memset(&d, 0, sizeof d);
      d.struct_size = PJRT_Error_Destroy_Args_STRUCT_SIZE;
      d.error = err;
      api->PJRT_Error_Destroy(&d);
    }
  }
}

/* Distributed clients: PJRT_Client_Create's key-value callbacks are Go
   functions (kvstore.go exports them); user_arg points at a malloc'ed
   uintptr_t holding the store's cgo.Handle. */
extern PJRT_Error* stelaKVGet(PJRT_KeyValueGetCallback_Args* args);
extern PJRT_Error* stelaKVTryGet(PJRT_KeyValueTryGetCallback_Args* args);
extern PJRT_Error* stelaKVPut(PJRT_KeyValuePutCallback_Args* args);

static inline void stela_kv_set(PJRT_Client_Create_Args* a, void* user) {
  a->kv_get_callback = stelaKVGet;
  a->kv_get_user_arg = user;
  a->kv_put_callback = stelaKVPut;
  a->kv_put_user_arg = user;
  a->kv_try_get_callback = stelaKVTryGet;
  a->kv_try_get_user_arg = user;
}
static inline uintptr_t stela_kv_handle(void* user) { return *(uintptr_t*)user; }
static inline void stela_kv_free(char* v) { free(v); }
static inline void stela_kv_get_value(PJRT_KeyValueGetCallback_Args* a, char* v, size_t n) {
  a->value = v;
  a->value_size = n;
  a->value_deleter_callback = stela_kv_free;
}
static inline void stela_kv_try_get_value(PJRT_KeyValueTryGetCallback_Args* a, char* v, size_t n) {
  a->value = v;
  a->value_size = n;
  a->value_deleter_callback = stela_kv_free;
}
/* The plugin's error constructor, for a callback's failure. */
static inline PJRT_Error* stela_kv_error(PJRT_CallbackError* f, PJRT_Error_Code code, const char* msg, size_t n) {
  return (*f)(code, msg, n);
}

/* Views of host memory (view.go): on_delete_callback is a Go function
   (stelaViewDeleted); user_arg points at a malloc'ed uintptr_t holding
   the release function's cgo.Handle. */
extern void stelaViewDeleted(void* device_buffer_ptr, void* user_arg);

static inline void stela_view_set(PJRT_Client_CreateViewOfDeviceBuffer_Args* a, void* user) {
  a->on_delete_callback = stelaViewDeleted;
  a->on_delete_callback_arg = user;
}

#endif /* STELA_PJRT_CGO_H_ */
