/* A mock PJRT plugin for package pjrt's tests: it implements enough of the
   C API, against Stela's own header, to drive the Go client through every
   path (load, attributes, devices, memories, compile, execute, buffers of
   every element type, events, errors) without a compiler. Its only program
   is "mock.identity N" (N inputs in, the same N out, copied); programs
   containing "mock.fail_compile" fail to compile and "mock.fail_execute"
   ones fail in their completion event. The executable's name is
   "opts:" + hex of the compile options it was given.

   It also checks the client: it counts live objects (mock_live_objects)
   and records ordering violations (mock_violations): a client destroyed
   while its buffers or executables live, an object used or destroyed
   after its client, a wrong struct_size.

   Built by the tests with: cc -shared -fPIC -I<capi> mock_plugin.c table.c
   where table.c (written by the test) fills PJRT_Api with the mock_PJRT_*
   functions defined here and leaves every other slot NULL. */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stela_pjrt.h"

#define EXPORT __attribute__((visibility("default")))

static atomic_int live_objects;
static atomic_int violations;
static atomic_int initialized;

EXPORT int mock_live_objects(void) { return atomic_load(&live_objects); }
EXPORT int mock_violations(void) { return atomic_load(&violations); }
EXPORT int mock_initialize_calls(void) { return atomic_load(&initialized); }

static void violation(const char* what) {
  fprintf(stderr, "mock plugin: client violation: %s\n", what);
  atomic_fetch_add(&violations, 1);
}

#define CHECK_SIZE(args, T)                                  \
  do {                                                       \
    if ((args)->struct_size < T##_STRUCT_SIZE) violation("struct_size of " #T); \
  } while (0)

/* ---- Errors ---- */

struct PJRT_Error {
  PJRT_Error_Code code;
  char* msg;
};

static PJRT_Error* mk_err(PJRT_Error_Code code, const char* fmt, const char* arg) {
  PJRT_Error* e = calloc(1, sizeof *e);
  size_t n = strlen(fmt) + (arg ? strlen(arg) : 0) + 1;
  e->msg = malloc(n);
  snprintf(e->msg, n, fmt, arg ? arg : "");
  e->code = code;
  atomic_fetch_add(&live_objects, 1);
  return e;
}

void mock_PJRT_Error_Destroy(PJRT_Error_Destroy_Args* a) {
  CHECK_SIZE(a, PJRT_Error_Destroy_Args);
  if (!a->error) return;
  free(a->error->msg);
  free(a->error);
  atomic_fetch_sub(&live_objects, 1);
}

void mock_PJRT_Error_Message(PJRT_Error_Message_Args* a) {
  CHECK_SIZE(a, PJRT_Error_Message_Args);
  a->message = a->error->msg;
  a->message_size = strlen(a->error->msg);
}

PJRT_Error* mock_PJRT_Error_GetCode(PJRT_Error_GetCode_Args* a) {
  CHECK_SIZE(a, PJRT_Error_GetCode_Args);
  a->code = a->error->code;
  return NULL;
}

/* ---- Plugin ---- */

PJRT_Error* mock_PJRT_Plugin_Initialize(PJRT_Plugin_Initialize_Args* a) {
  CHECK_SIZE(a, PJRT_Plugin_Initialize_Args);
  atomic_fetch_add(&initialized, 1);
  return NULL;
}

static const int64_t stablehlo_version[3] = {1, 0, 0};
static PJRT_NamedValue plugin_attrs[4];

PJRT_Error* mock_PJRT_Plugin_Attributes(PJRT_Plugin_Attributes_Args* a) {
  CHECK_SIZE(a, PJRT_Plugin_Attributes_Args);
  PJRT_NamedValue* v = plugin_attrs;
  for (int i = 0; i < 4; i++) v[i].struct_size = PJRT_NamedValue_STRUCT_SIZE;
  v[0].name = "stablehlo_current_version"; v[0].name_size = strlen(v[0].name);
  v[0].type = PJRT_NamedValue_kInt64List; v[0].int64_array_value = stablehlo_version; v[0].value_size = 3;
  v[1].name = "mock"; v[1].name_size = 4; v[1].type = PJRT_NamedValue_kBool; v[1].bool_value = true; v[1].value_size = 1;
  v[2].name = "ratio"; v[2].name_size = 5; v[2].type = PJRT_NamedValue_kFloat; v[2].float_value = 0.5f; v[2].value_size = 1;
  v[3].name = "greeting"; v[3].name_size = 8; v[3].type = PJRT_NamedValue_kString; v[3].string_value = "hello"; v[3].value_size = 5;
  a->attributes = plugin_attrs;
  a->num_attributes = 4;
  return NULL;
}

/* ---- Events: always complete, possibly with an error ---- */

struct PJRT_Event {
  PJRT_Error_Code code; /* OK or the error */
  char* msg;
};

static PJRT_Event* mk_event(PJRT_Error_Code code, const char* msg) {
  PJRT_Event* e = calloc(1, sizeof *e);
  e->code = code;
  e->msg = msg ? strdup(msg) : NULL;
  atomic_fetch_add(&live_objects, 1);
  return e;
}

static PJRT_Error* event_error(PJRT_Event* e) {
  return e->code == PJRT_Error_Code_OK ? NULL : mk_err(e->code, "%s", e->msg);
}

PJRT_Error* mock_PJRT_Event_Destroy(PJRT_Event_Destroy_Args* a) {
  CHECK_SIZE(a, PJRT_Event_Destroy_Args);
  if (!a->event) return NULL;
  free(a->event->msg);
  free(a->event);
  atomic_fetch_sub(&live_objects, 1);
  return NULL;
}

PJRT_Error* mock_PJRT_Event_IsReady(PJRT_Event_IsReady_Args* a) {
  CHECK_SIZE(a, PJRT_Event_IsReady_Args);
  a->is_ready = true;
  return NULL;
}

PJRT_Error* mock_PJRT_Event_Error(PJRT_Event_Error_Args* a) { return event_error(a->event); }

PJRT_Error* mock_PJRT_Event_Await(PJRT_Event_Await_Args* a) {
  CHECK_SIZE(a, PJRT_Event_Await_Args);
  return event_error(a->event);
}

/* ---- Client, devices, memories ---- */

#define MAX_DEVICES 8

struct PJRT_DeviceDescription {
  int id;
  char kind[16], debug[64], str[32];
  PJRT_NamedValue attrs[1];
};

struct PJRT_Memory {
  int id;
  PJRT_Device* device;
  char str[32];
};

struct PJRT_Device {
  PJRT_DeviceDescription desc;
  PJRT_Memory memory;
  PJRT_Memory* memories[1];
  int64_t core;
};

struct PJRT_Client {
  int num_devices;
  PJRT_Device devices[MAX_DEVICES];
  PJRT_Device* device_ptrs[MAX_DEVICES];
  PJRT_Memory* memory_ptrs[MAX_DEVICES];
  atomic_int children; /* live buffers and executables */
  atomic_int destroyed;
};

static void child_made(PJRT_Client* c) {
  atomic_fetch_add(&c->children, 1);
  atomic_fetch_add(&live_objects, 1);
}

static void child_gone(PJRT_Client* c) {
  if (atomic_load(&c->destroyed)) violation("object destroyed after its client");
  atomic_fetch_sub(&c->children, 1);
  atomic_fetch_sub(&live_objects, 1);
}

static int name_is(const PJRT_NamedValue* v, const char* name) {
  return v->name_size == strlen(name) && memcmp(v->name, name, v->name_size) == 0;
}

PJRT_Error* mock_PJRT_Client_Create(PJRT_Client_Create_Args* a) {
  CHECK_SIZE(a, PJRT_Client_Create_Args);
  int n = 1;
  for (size_t i = 0; i < a->num_options; i++) {
    const PJRT_NamedValue* v = &a->create_options[i];
    if (v->struct_size < PJRT_NamedValue_STRUCT_SIZE) violation("struct_size of PJRT_NamedValue");
    if (name_is(v, "num_devices") && v->type == PJRT_NamedValue_kInt64) {
      n = (int)v->int64_value;
    } else if (name_is(v, "fail") && v->type == PJRT_NamedValue_kString) {
      char msg[128];
      snprintf(msg, sizeof msg, "%.*s", (int)v->value_size, v->string_value);
      return mk_err(PJRT_Error_Code_INVALID_ARGUMENT, "client creation refused: %s", msg);
    } else if (name_is(v, "echo_float") && v->type == PJRT_NamedValue_kFloat) {
      if (v->float_value != 0.25f) return mk_err(PJRT_Error_Code_INVALID_ARGUMENT, "echo_float is not 0.25%s", "");
    } else if (name_is(v, "echo_list") && v->type == PJRT_NamedValue_kInt64List) {
      if (v->value_size != 2 || v->int64_array_value[0] != 7 || v->int64_array_value[1] != -8)
        return mk_err(PJRT_Error_Code_INVALID_ARGUMENT, "echo_list is not [7 -8]%s", "");
    } else if (name_is(v, "echo_bool") && v->type == PJRT_NamedValue_kBool) {
      if (!v->bool_value) return mk_err(PJRT_Error_Code_INVALID_ARGUMENT, "echo_bool is not true%s", "");
    } else {
      char name[64];
      snprintf(name, sizeof name, "%.*s", (int)v->name_size, v->name);
      return mk_err(PJRT_Error_Code_INVALID_ARGUMENT, "unknown or mistyped option %s", name);
    }
  }
  if (n < 1 || n > MAX_DEVICES) return mk_err(PJRT_Error_Code_INVALID_ARGUMENT, "num_devices out of range%s", "");
  PJRT_Client* c = calloc(1, sizeof *c);
  c->num_devices = n;
  for (int i = 0; i < n; i++) {
    PJRT_Device* d = &c->devices[i];
    d->desc.id = i;
    snprintf(d->desc.kind, sizeof d->desc.kind, "mock");
    snprintf(d->desc.str, sizeof d->desc.str, "MockDevice(id=%d)", i);
    snprintf(d->desc.debug, sizeof d->desc.debug, "mock device %d of %d", i, n);
    d->core = 100 + i;
    d->desc.attrs[0].struct_size = PJRT_NamedValue_STRUCT_SIZE;
    d->desc.attrs[0].name = "core";
    d->desc.attrs[0].name_size = 4;
    d->desc.attrs[0].type = PJRT_NamedValue_kInt64;
    d->desc.attrs[0].int64_value = d->core;
    d->desc.attrs[0].value_size = 1;
    d->memory.id = 10 + i;
    d->memory.device = d;
    snprintf(d->memory.str, sizeof d->memory.str, "MockMemory(id=%d)", 10 + i);
    d->memories[0] = &d->memory;
    c->device_ptrs[i] = d;
    c->memory_ptrs[i] = &d->memory;
  }
  atomic_fetch_add(&live_objects, 1);
  a->client = c;
  return NULL;
}

PJRT_Error* mock_PJRT_Client_Destroy(PJRT_Client_Destroy_Args* a) {
  CHECK_SIZE(a, PJRT_Client_Destroy_Args);
  if (!a->client) return NULL;
  if (atomic_load(&a->client->children) != 0) violation("client destroyed while its objects live");
  /* Keep the memory (marked destroyed) so that late uses are detected
     rather than crashing the test. */
  atomic_store(&a->client->destroyed, 1);
  atomic_fetch_sub(&live_objects, 1);
  return NULL;
}

#define STRING_OUT(field, value) \
  do { a->field = value; a->field##_size = strlen(value); } while (0)

PJRT_Error* mock_PJRT_Client_PlatformName(PJRT_Client_PlatformName_Args* a) {
  STRING_OUT(platform_name, "mock");
  return NULL;
}

PJRT_Error* mock_PJRT_Client_PlatformVersion(PJRT_Client_PlatformVersion_Args* a) {
  STRING_OUT(platform_version, "mock 1.0");
  return NULL;
}

PJRT_Error* mock_PJRT_Client_ProcessIndex(PJRT_Client_ProcessIndex_Args* a) {
  a->process_index = 0;
  return NULL;
}

PJRT_Error* mock_PJRT_Client_Devices(PJRT_Client_Devices_Args* a) {
  a->devices = a->client->device_ptrs;
  a->num_devices = a->client->num_devices;
  return NULL;
}

PJRT_Error* mock_PJRT_Client_AddressableDevices(PJRT_Client_AddressableDevices_Args* a) {
  CHECK_SIZE(a, PJRT_Client_AddressableDevices_Args);
  a->addressable_devices = a->client->device_ptrs;
  a->num_addressable_devices = a->client->num_devices;
  return NULL;
}

PJRT_Error* mock_PJRT_Client_AddressableMemories(PJRT_Client_AddressableMemories_Args* a) {
  a->addressable_memories = a->client->memory_ptrs;
  a->num_addressable_memories = a->client->num_devices;
  return NULL;
}

PJRT_Error* mock_PJRT_Client_DefaultDeviceAssignment(PJRT_Client_DefaultDeviceAssignment_Args* a) {
  CHECK_SIZE(a, PJRT_Client_DefaultDeviceAssignment_Args);
  int n = a->num_replicas * a->num_partitions;
  if ((size_t)n > a->default_assignment_size) return mk_err(PJRT_Error_Code_INVALID_ARGUMENT, "assignment array too small%s", "");
  if (n > a->client->num_devices) return mk_err(PJRT_Error_Code_INVALID_ARGUMENT, "not enough devices%s", "");
  /* Reverse order, so that tests can tell it from the identity. */
  for (int i = 0; i < n; i++) a->default_assignment[i] = n - 1 - i;
  return NULL;
}

PJRT_Error* mock_PJRT_DeviceDescription_Id(PJRT_DeviceDescription_Id_Args* a) {
  a->id = a->device_description->id;
  return NULL;
}

PJRT_Error* mock_PJRT_DeviceDescription_ProcessIndex(PJRT_DeviceDescription_ProcessIndex_Args* a) {
  a->process_index = 0;
  return NULL;
}

PJRT_Error* mock_PJRT_DeviceDescription_Attributes(PJRT_DeviceDescription_Attributes_Args* a) {
  a->attributes = a->device_description->attrs;
  a->num_attributes = 1;
  return NULL;
}

PJRT_Error* mock_PJRT_DeviceDescription_Kind(PJRT_DeviceDescription_Kind_Args* a) {
  STRING_OUT(device_kind, a->device_description->kind);
  return NULL;
}

PJRT_Error* mock_PJRT_DeviceDescription_DebugString(PJRT_DeviceDescription_DebugString_Args* a) {
  STRING_OUT(debug_string, a->device_description->debug);
  return NULL;
}

PJRT_Error* mock_PJRT_DeviceDescription_ToString(PJRT_DeviceDescription_ToString_Args* a) {
  STRING_OUT(to_string, a->device_description->str);
  return NULL;
}

PJRT_Error* mock_PJRT_Device_GetDescription(PJRT_Device_GetDescription_Args* a) {
  a->device_description = &a->device->desc;
  return NULL;
}

PJRT_Error* mock_PJRT_Device_IsAddressable(PJRT_Device_IsAddressable_Args* a) {
  a->is_addressable = true;
  return NULL;
}

PJRT_Error* mock_PJRT_Device_LocalHardwareId(PJRT_Device_LocalHardwareId_Args* a) {
  a->local_hardware_id = a->device->desc.id;
  return NULL;
}

PJRT_Error* mock_PJRT_Device_AddressableMemories(PJRT_Device_AddressableMemories_Args* a) {
  a->memories = a->device->memories;
  a->num_memories = 1;
  return NULL;
}

PJRT_Error* mock_PJRT_Device_DefaultMemory(PJRT_Device_DefaultMemory_Args* a) {
  a->memory = &a->device->memory;
  return NULL;
}

PJRT_Error* mock_PJRT_Memory_Id(PJRT_Memory_Id_Args* a) {
  a->id = a->memory->id;
  return NULL;
}

PJRT_Error* mock_PJRT_Memory_Kind(PJRT_Memory_Kind_Args* a) {
  STRING_OUT(kind, "device");
  return NULL;
}

PJRT_Error* mock_PJRT_Memory_Kind_Id(PJRT_Memory_Kind_Id_Args* a) {
  a->kind_id = 0;
  return NULL;
}

PJRT_Error* mock_PJRT_Memory_DebugString(PJRT_Memory_DebugString_Args* a) {
  STRING_OUT(debug_string, a->memory->str);
  return NULL;
}

PJRT_Error* mock_PJRT_Memory_ToString(PJRT_Memory_ToString_Args* a) {
  STRING_OUT(to_string, a->memory->str);
  return NULL;
}

PJRT_Error* mock_PJRT_Memory_AddressableByDevices(PJRT_Memory_AddressableByDevices_Args* a) {
  a->devices = &a->memory->device;
  a->num_devices = 1;
  return NULL;
}

/* ---- Buffers ---- */

struct PJRT_Buffer {
  PJRT_Client* client;
  PJRT_Device* device;
  PJRT_Buffer_Type type;
  int64_t dims[16];
  size_t num_dims;
  size_t size;
  char* data;
  bool deleted;
};

static size_t elem_size(PJRT_Buffer_Type t) {
  switch (t) {
    case PJRT_Buffer_Type_PRED: case PJRT_Buffer_Type_S8: case PJRT_Buffer_Type_U8: return 1;
    case PJRT_Buffer_Type_S16: case PJRT_Buffer_Type_U16: case PJRT_Buffer_Type_F16: case PJRT_Buffer_Type_BF16: return 2;
    case PJRT_Buffer_Type_S32: case PJRT_Buffer_Type_U32: case PJRT_Buffer_Type_F32: return 4;
    case PJRT_Buffer_Type_S64: case PJRT_Buffer_Type_U64: case PJRT_Buffer_Type_F64: case PJRT_Buffer_Type_C64: return 8;
    case PJRT_Buffer_Type_C128: return 16;
    default: return 0;
  }
}

static PJRT_Buffer* mk_buffer(PJRT_Client* c, PJRT_Device* d, PJRT_Buffer_Type t, const int64_t* dims, size_t nd) {
  PJRT_Buffer* b = calloc(1, sizeof *b);
  b->client = c;
  b->device = d;
  b->type = t;
  b->num_dims = nd;
  size_t n = 1;
  for (size_t i = 0; i < nd; i++) {
    b->dims[i] = dims[i];
    n *= (size_t)dims[i];
  }
  b->size = n * elem_size(t);
  b->data = malloc(b->size ? b->size : 1);
  child_made(c);
  return b;
}

static PJRT_Error* check_buffer(PJRT_Buffer* b) {
  if (atomic_load(&b->client->destroyed)) violation("buffer used after its client");
  if (b->deleted) return mk_err(PJRT_Error_Code_FAILED_PRECONDITION, "buffer was deleted%s", "");
  return NULL;
}

PJRT_Error* mock_PJRT_Client_BufferFromHostBuffer(PJRT_Client_BufferFromHostBuffer_Args* a) {
  CHECK_SIZE(a, PJRT_Client_BufferFromHostBuffer_Args);
  if (elem_size(a->type) == 0) return mk_err(PJRT_Error_Code_UNIMPLEMENTED, "element type not supported by the mock%s", "");
  if (a->num_dims > 16) return mk_err(PJRT_Error_Code_INVALID_ARGUMENT, "rank too large%s", "");
  if (a->device_layout) return mk_err(PJRT_Error_Code_UNIMPLEMENTED, "device layouts%s", "");
  if (a->num_byte_strides != 0 && a->num_byte_strides != a->num_dims)
    return mk_err(PJRT_Error_Code_INVALID_ARGUMENT, "byte_strides length%s", "");
  PJRT_Device* d = a->device;
  if (a->memory) d = a->memory->device;
  if (!d) return mk_err(PJRT_Error_Code_INVALID_ARGUMENT, "no device or memory%s", "");
  PJRT_Buffer* b = mk_buffer(a->client, d, a->type, a->dims, a->num_dims);
  size_t es = elem_size(a->type), n = b->size / es;
  /* Strided gather: element k in row-major order. */
  int64_t strides[16];
  for (size_t i = 0; i < a->num_dims; i++) strides[i] = a->num_byte_strides ? a->byte_strides[i] : 0;
  if (!a->num_byte_strides) {
    int64_t s = (int64_t)es;
    for (size_t i = a->num_dims; i-- > 0;) {
      strides[i] = s;
      s *= a->dims[i];
    }
  }
  for (size_t k = 0; k < n; k++) {
    size_t rem = k;
    int64_t off = 0;
    for (size_t i = a->num_dims; i-- > 0;) {
      off += (int64_t)(rem % (size_t)a->dims[i]) * strides[i];
      rem /= (size_t)a->dims[i];
    }
    memcpy(b->data + k * es, (const char*)a->data + off, es);
  }
  a->buffer = b;
  a->done_with_host_buffer = mk_event(PJRT_Error_Code_OK, NULL);
  return NULL;
}

PJRT_Error* mock_PJRT_Buffer_Destroy(PJRT_Buffer_Destroy_Args* a) {
  CHECK_SIZE(a, PJRT_Buffer_Destroy_Args);
  if (!a->buffer) return NULL;
  child_gone(a->buffer->client);
  free(a->buffer->data);
  free(a->buffer);
  return NULL;
}

PJRT_Error* mock_PJRT_Buffer_ElementType(PJRT_Buffer_ElementType_Args* a) {
  CHECK_SIZE(a, PJRT_Buffer_ElementType_Args);
  a->type = a->buffer->type;
  return NULL;
}

PJRT_Error* mock_PJRT_Buffer_Dimensions(PJRT_Buffer_Dimensions_Args* a) {
  a->dims = a->buffer->dims;
  a->num_dims = a->buffer->num_dims;
  return NULL;
}

PJRT_Error* mock_PJRT_Buffer_OnDeviceSizeInBytes(PJRT_Buffer_OnDeviceSizeInBytes_Args* a) {
  a->on_device_size_in_bytes = a->buffer->size;
  return NULL;
}

PJRT_Error* mock_PJRT_Buffer_Device(PJRT_Buffer_Device_Args* a) {
  a->device = a->buffer->device;
  return NULL;
}

PJRT_Error* mock_PJRT_Buffer_Memory(PJRT_Buffer_Memory_Args* a) {
  a->memory = &a->buffer->device->memory;
  return NULL;
}

PJRT_Error* mock_PJRT_Buffer_Delete(PJRT_Buffer_Delete_Args* a) {
  a->buffer->deleted = true;
  return NULL;
}

PJRT_Error* mock_PJRT_Buffer_IsDeleted(PJRT_Buffer_IsDeleted_Args* a) {
  a->is_deleted = a->buffer->deleted;
  return NULL;
}

PJRT_Error* mock_PJRT_Buffer_IsOnCpu(PJRT_Buffer_IsOnCpu_Args* a) {
  a->is_on_cpu = false;
  return NULL;
}

PJRT_Error* mock_PJRT_Buffer_ReadyEvent(PJRT_Buffer_ReadyEvent_Args* a) {
  a->event = mk_event(PJRT_Error_Code_OK, NULL);
  return NULL;
}

PJRT_Error* mock_PJRT_Buffer_UnsafePointer(PJRT_Buffer_UnsafePointer_Args* a) {
  a->buffer_pointer = (uintptr_t)a->buffer->data;
  return NULL;
}

PJRT_Error* mock_PJRT_Buffer_CopyToDevice(PJRT_Buffer_CopyToDevice_Args* a) {
  PJRT_Error* e = check_buffer(a->buffer);
  if (e) return e;
  if (a->dst_device == a->buffer->device) return mk_err(PJRT_Error_Code_INVALID_ARGUMENT, "already on that device%s", "");
  PJRT_Buffer* b = mk_buffer(a->buffer->client, a->dst_device, a->buffer->type, a->buffer->dims, a->buffer->num_dims);
  memcpy(b->data, a->buffer->data, b->size);
  a->dst_buffer = b;
  return NULL;
}

PJRT_Error* mock_PJRT_Buffer_ToHostBuffer(PJRT_Buffer_ToHostBuffer_Args* a) {
  CHECK_SIZE(a, PJRT_Buffer_ToHostBuffer_Args);
  PJRT_Buffer* b = a->src;
  PJRT_Error* e = check_buffer(b);
  if (e) return e;
  if (a->host_layout) {
    const PJRT_Buffer_MemoryLayout* l = a->host_layout;
    if (l->type != PJRT_Buffer_MemoryLayout_Type_Tiled || l->tiled.num_tiles != 0 ||
        l->tiled.minor_to_major_size != b->num_dims)
      return mk_err(PJRT_Error_Code_UNIMPLEMENTED, "mock copies to dense row-major layouts only%s", "");
    for (size_t i = 0; i < b->num_dims; i++)
      if (l->tiled.minor_to_major[i] != (int64_t)(b->num_dims - 1 - i))
        return mk_err(PJRT_Error_Code_UNIMPLEMENTED, "mock copies to row-major layouts only%s", "");
  }
  if (a->dst == NULL) {
    a->dst_size = b->size;
    return NULL;
  }
  if (a->dst_size < b->size) return mk_err(PJRT_Error_Code_INVALID_ARGUMENT, "dst_size too small%s", "");
  memcpy(a->dst, b->data, b->size);
  a->event = mk_event(PJRT_Error_Code_OK, NULL);
  return NULL;
}

/* ---- Compile and execute ---- */

struct PJRT_LoadedExecutable {
  PJRT_Client* client;
  int num_io;
  bool fail;
  char name[256];
};

struct PJRT_Executable {
  PJRT_LoadedExecutable* loaded; /* for its fields only; may be destroyed first */
  int num_io;
  char name[256];
};

PJRT_Error* mock_PJRT_Client_Compile(PJRT_Client_Compile_Args* a) {
  CHECK_SIZE(a, PJRT_Client_Compile_Args);
  if (a->program->struct_size < PJRT_Program_STRUCT_SIZE) violation("struct_size of PJRT_Program");
  if (a->program->format_size != 4 || memcmp(a->program->format, "mlir", 4) != 0)
    return mk_err(PJRT_Error_Code_INVALID_ARGUMENT, "mock compiles format mlir only%s", "");
  char* code = strndup(a->program->code, a->program->code_size);
  PJRT_Error* err = NULL;
  const char* id = strstr(code, "mock.identity ");
  if (strstr(code, "mock.fail_compile")) {
    err = mk_err(PJRT_Error_Code_INVALID_ARGUMENT, "compile failed: %s", "bad program");
  } else if (!id) {
    err = mk_err(PJRT_Error_Code_UNIMPLEMENTED, "mock runs mock.identity programs only%s", "");
  } else {
    PJRT_LoadedExecutable* e = calloc(1, sizeof *e);
    e->client = a->client;
    e->num_io = atoi(id + strlen("mock.identity "));
    e->fail = strstr(code, "mock.fail_execute") != NULL;
    int n = snprintf(e->name, sizeof e->name, "opts:");
    for (size_t i = 0; i < a->compile_options_size && n + 3 < (int)sizeof e->name; i++)
      n += snprintf(e->name + n, sizeof e->name - n, "%02x", (unsigned char)a->compile_options[i]);
    child_made(a->client);
    a->executable = e;
  }
  free(code);
  return err;
}

PJRT_Error* mock_PJRT_LoadedExecutable_Destroy(PJRT_LoadedExecutable_Destroy_Args* a) {
  if (!a->executable) return NULL;
  child_gone(a->executable->client);
  free(a->executable);
  return NULL;
}

PJRT_Error* mock_PJRT_LoadedExecutable_GetExecutable(PJRT_LoadedExecutable_GetExecutable_Args* a) {
  PJRT_Executable* x = calloc(1, sizeof *x);
  x->num_io = a->loaded_executable->num_io;
  memcpy(x->name, a->loaded_executable->name, sizeof x->name);
  atomic_fetch_add(&live_objects, 1);
  a->executable = x;
  return NULL;
}

PJRT_Error* mock_PJRT_Executable_Destroy(PJRT_Executable_Destroy_Args* a) {
  if (!a->executable) return NULL;
  free(a->executable);
  atomic_fetch_sub(&live_objects, 1);
  return NULL;
}

PJRT_Error* mock_PJRT_Executable_Name(PJRT_Executable_Name_Args* a) {
  STRING_OUT(executable_name, a->executable->name);
  return NULL;
}

PJRT_Error* mock_PJRT_Executable_NumOutputs(PJRT_Executable_NumOutputs_Args* a) {
  a->num_outputs = (size_t)a->executable->num_io;
  return NULL;
}

PJRT_Error* mock_PJRT_Executable_NumReplicas(PJRT_Executable_NumReplicas_Args* a) {
  a->num_replicas = 1;
  return NULL;
}

PJRT_Error* mock_PJRT_Executable_OutputElementTypes(PJRT_Executable_OutputElementTypes_Args* a) {
  (void)a;
  return mk_err(PJRT_Error_Code_UNIMPLEMENTED, "output types are not known before execution%s", "");
}

PJRT_Error* mock_PJRT_LoadedExecutable_AddressableDevices(PJRT_LoadedExecutable_AddressableDevices_Args* a) {
  a->addressable_devices = a->executable->client->device_ptrs;
  a->num_addressable_devices = a->executable->client->num_devices;
  return NULL;
}

PJRT_Error* mock_PJRT_LoadedExecutable_Execute(PJRT_LoadedExecutable_Execute_Args* a) {
  CHECK_SIZE(a, PJRT_LoadedExecutable_Execute_Args);
  PJRT_LoadedExecutable* e = a->executable;
  if (atomic_load(&e->client->destroyed)) violation("executable used after its client");
  if (a->options && a->options->struct_size < PJRT_ExecuteOptions_STRUCT_SIZE) violation("struct_size of PJRT_ExecuteOptions");
  if (a->num_args != (size_t)e->num_io) return mk_err(PJRT_Error_Code_INVALID_ARGUMENT, "wrong number of arguments%s", "");
  if (a->execute_device && a->num_devices != 1) return mk_err(PJRT_Error_Code_INVALID_ARGUMENT, "portable run on several devices%s", "");
  for (size_t d = 0; d < a->num_devices; d++)
    for (size_t i = 0; i < a->num_args; i++) {
      PJRT_Error* err = check_buffer(a->argument_lists[d][i]);
      if (err) return err;
    }
  for (size_t d = 0; d < a->num_devices; d++) {
    PJRT_Device* dev = a->execute_device ? a->execute_device : e->client->device_ptrs[d];
    for (size_t i = 0; i < a->num_args; i++) {
      PJRT_Buffer* in = a->argument_lists[d][i];
      PJRT_Buffer* out = mk_buffer(e->client, dev, in->type, in->dims, in->num_dims);
      memcpy(out->data, in->data, in->size);
      a->output_lists[d][i] = out;
    }
    if (a->device_complete_events)
      a->device_complete_events[d] = e->fail ? mk_event(PJRT_Error_Code_INTERNAL, "execution failed on purpose")
                                             : mk_event(PJRT_Error_Code_OK, NULL);
  }
  return NULL;
}

/* ---- The table (filled by table.c, which the test writes) ---- */

extern PJRT_Api mock_api;

EXPORT const PJRT_Api* GetPjrtApi(void) { return &mock_api; }
