/*
 * jax.c: PJRT functions the XLA C-API client (JAX) calls that gopjrt
 * does not: the device assignment of a loaded executable.
 */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* PJRT_LoadedExecutable_GetDeviceAssignment_Args, as XLA's
   pjrt_c_api.h defines it (stela_pjrt.h only declares the name). */
typedef struct PJRT_DeviceAssignmentSerialized PJRT_DeviceAssignmentSerialized;
struct PJRT_LoadedExecutable_GetDeviceAssignment_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_LoadedExecutable* executable;
  const char* serialized_bytes;
  size_t serialized_bytes_size;
  PJRT_DeviceAssignmentSerialized* serialized_device_assignment;
  void (*serialized_device_assignment_deleter)(PJRT_DeviceAssignmentSerialized* da);
};

/* A growable byte buffer for protobuf encoding. */
typedef struct {
  unsigned char* b;
  size_t n, cap;
  bool oom;
} pbuf;

static void pb_byte(pbuf* p, unsigned char c) {
  if (p->oom) return;
  if (p->n == p->cap) {
    size_t cap = p->cap ? 2 * p->cap : 64;
    unsigned char* nb = realloc(p->b, cap);
    if (nb == NULL) {
      p->oom = true;
      return;
    }
    p->b = nb;
    p->cap = cap;
  }
  p->b[p->n++] = c;
}

static void pb_varint(pbuf* p, uint64_t v) {
  while (v >= 0x80) {
    pb_byte(p, (unsigned char)(v | 0x80));
    v >>= 7;
  }
  pb_byte(p, (unsigned char)v);
}

static size_t varint_len(uint64_t v) {
  size_t n = 1;
  while (v >= 0x80) {
    v >>= 7;
    n++;
  }
  return n;
}

static void free_serialized(PJRT_DeviceAssignmentSerialized* da) { free(da); }

/* Serializes xla.DeviceAssignmentProto: replica_count (1),
   computation_count (2), and per computation (partition) a
   ComputationDevice (3) of replica_device_ids (1, packed). A portable
   executable runs where execute_device says; it reports the 1 x 1
   assignment to device 0, XLA's default for a portable compile. */
PJRT_Error* stela_LoadedExecutable_GetDeviceAssignment(PJRT_LoadedExecutable_GetDeviceAssignment_Args* args) {
  STELA_CHECK_ARGS(PJRT_LoadedExecutable_GetDeviceAssignment_Args, args, serialized_device_assignment_deleter);
  PJRT_LoadedExecutable* e = args->executable;
  if (e == NULL)
    return stela_error(PJRT_Error_Code_INVALID_ARGUMENT, "PJRT_LoadedExecutable_GetDeviceAssignment: executable is NULL");
  size_t R = e->portable ? 1 : e->num_replicas, P = e->portable ? 1 : e->num_partitions;
  pbuf p = {0};
  pb_varint(&p, 1 << 3);
  pb_varint(&p, R);
  pb_varint(&p, 2 << 3);
  pb_varint(&p, P);
  for (size_t part = 0; part < P; part++) {
    size_t len = 0;
    for (size_t r = 0; r < R; r++) len += varint_len(e->portable ? 0 : (uint64_t)e->devices[r * P + part]->id);
    pb_varint(&p, 3 << 3 | 2);
    pb_varint(&p, 1 + varint_len(len) + len);
    pb_varint(&p, 1 << 3 | 2);
    pb_varint(&p, len);
    for (size_t r = 0; r < R; r++) pb_varint(&p, e->portable ? 0 : (uint64_t)e->devices[r * P + part]->id);
  }
  if (p.oom) {
    free(p.b);
    return stela_oom();
  }
  args->serialized_bytes = (const char*)p.b;
  args->serialized_bytes_size = p.n;
  args->serialized_device_assignment = (PJRT_DeviceAssignmentSerialized*)p.b;
  args->serialized_device_assignment_deleter = free_serialized;
  return NULL;
}
