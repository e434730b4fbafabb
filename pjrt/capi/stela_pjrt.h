/*
 * stela_pjrt.h: Stela's own declarations of the PJRT C API, the part of
 * API version 0.81 that Stela's Go client (package pjrt) calls and that the
 * Stela CPU plugin (pjrt/cpu) implements.
 *
 * Written from the facts in docs/pjrt-c-api.md (Appendix A); it is not a
 * copy of XLA's pjrt_c_api.h. Type, field and enumerator names are the real
 * ones because they are the ABI. TestABI (pjrt/capi) compiles this file and
 * the real header (from the Go module cache) in two translation units and
 * compares the size, alignment and offset of every struct and field declared
 * here, every _STRUCT_SIZE constant and every enumerator. That list is
 * parsed from this file, so keep to its layout: one declaration per line,
 * structs as "struct NAME {" ... "};" followed by PJRT_STRUCT_END, enums as
 * "typedef enum {" ... "} NAME;" with explicit values.
 *
 * Conventions (pjrt-c-api.md section 2): every args struct starts with
 * struct_size and extension_start. A caller sets struct_size to the
 * NAME_STRUCT_SIZE below, which is the end of the last field, not sizeof
 * (trailing padding is excluded). A callee reads no field that ends beyond
 * the struct_size it was given and never dereferences extension_start
 * unless it implements args extensions.
 *
 * Structs of functions that Stela neither calls nor implements are declared
 * incomplete: PJRT_Api still has every one of its 118 slots (a plugin must
 * fill each one, if only with a stub that returns UNIMPLEMENTED), but their
 * layout is left unspecified here.
 */
#ifndef STELA_PJRT_CAPI_STELA_PJRT_H_
#define STELA_PJRT_CAPI_STELA_PJRT_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The header version: a plugin built with this file declares 0.81 and must
   fill every slot of PJRT_Api. The major version has never changed; minor
   versions only append fields and slots. */
#define PJRT_API_MAJOR 0
#define PJRT_API_MINOR 81

/* PJRT_STRUCT_END(S, last) closes the declaration of struct S whose last
   field is `last`: S_STRUCT_SIZE is the byte offset where that field ends. */
#define PJRT_STRUCT_END(S, last) \
  enum { S##_STRUCT_SIZE = offsetof(S, last) + sizeof(((S*)0)->last) };

/* ---- Opaque objects: defined by the plugin, handled by pointer only. ---- */

typedef struct PJRT_Error PJRT_Error;
typedef struct PJRT_Client PJRT_Client;
typedef struct PJRT_Device PJRT_Device;
typedef struct PJRT_DeviceDescription PJRT_DeviceDescription;
typedef struct PJRT_Memory PJRT_Memory;
typedef struct PJRT_Executable PJRT_Executable;
typedef struct PJRT_LoadedExecutable PJRT_LoadedExecutable;
typedef struct PJRT_Buffer PJRT_Buffer;
typedef struct PJRT_Event PJRT_Event;
typedef struct PJRT_TopologyDescription PJRT_TopologyDescription;
typedef struct PJRT_ExecuteContext PJRT_ExecuteContext;
typedef struct PJRT_CopyToDeviceStream PJRT_CopyToDeviceStream;
typedef struct PJRT_AsyncHostToDeviceTransferManager PJRT_AsyncHostToDeviceTransferManager;
typedef struct PJRT_SendCallbackInfo PJRT_SendCallbackInfo;
typedef struct PJRT_RecvCallbackInfo PJRT_RecvCallbackInfo;
typedef struct PJRT_SerializedExecutable PJRT_SerializedExecutable;
typedef struct PJRT_SerializedTopology PJRT_SerializedTopology;

/* ---- Enumerations (4-byte C enums on every LP64 target). ---- */

typedef enum {
  PJRT_Extension_Type_Gpu_Custom_Call = 0,
  PJRT_Extension_Type_Profiler = 1,
  PJRT_Extension_Type_Custom_Partitioner = 2,
  PJRT_Extension_Type_Stream = 3,
  PJRT_Extension_Type_Layouts = 4,
  PJRT_Extension_Type_FFI = 5,
  PJRT_Extension_Type_MemoryDescriptions = 6,
  PJRT_Extension_Type_Triton = 7,
  PJRT_Extension_Type_RawBuffer = 8,
  PJRT_Extension_Type_PhaseCompile = 9,
  PJRT_Extension_Type_Example = 10,
  PJRT_Extension_Type_Unknown = 11,
  PJRT_Extension_Type_CrossHostTransfers = 12,
  PJRT_Extension_Type_ExecutableMetadata = 13,
  PJRT_Extension_Type_Callback = 14,
  PJRT_Extension_Type_HostAllocator = 15,
} PJRT_Extension_Type;

/* Error codes are abseil's status codes. */
typedef enum {
  PJRT_Error_Code_OK = 0,
  PJRT_Error_Code_CANCELLED = 1,
  PJRT_Error_Code_UNKNOWN = 2,
  PJRT_Error_Code_INVALID_ARGUMENT = 3,
  PJRT_Error_Code_DEADLINE_EXCEEDED = 4,
  PJRT_Error_Code_NOT_FOUND = 5,
  PJRT_Error_Code_ALREADY_EXISTS = 6,
  PJRT_Error_Code_PERMISSION_DENIED = 7,
  PJRT_Error_Code_RESOURCE_EXHAUSTED = 8,
  PJRT_Error_Code_FAILED_PRECONDITION = 9,
  PJRT_Error_Code_ABORTED = 10,
  PJRT_Error_Code_OUT_OF_RANGE = 11,
  PJRT_Error_Code_UNIMPLEMENTED = 12,
  PJRT_Error_Code_INTERNAL = 13,
  PJRT_Error_Code_UNAVAILABLE = 14,
  PJRT_Error_Code_DATA_LOSS = 15,
  PJRT_Error_Code_UNAUTHENTICATED = 16,
} PJRT_Error_Code;

typedef enum {
  PJRT_NamedValue_kString = 0,
  PJRT_NamedValue_kInt64 = 1,
  PJRT_NamedValue_kInt64List = 2,
  PJRT_NamedValue_kFloat = 3,
  PJRT_NamedValue_kBool = 4,
} PJRT_NamedValue_Type;

typedef enum {
  PJRT_ProcessState_kUnspecified = 0,
  PJRT_ProcessState_kUninitialized = 1,
  PJRT_ProcessState_kDisconnected = 2,
  PJRT_ProcessState_kConnected = 3,
  PJRT_ProcessState_kError = 4,
} PJRT_ProcessState;

/* Element types. These are not XLA's PrimitiveType proto numbers (there
   BF16 is 16 and C64 is 15): never mix the two. */
typedef enum {
  PJRT_Buffer_Type_INVALID = 0,
  PJRT_Buffer_Type_PRED = 1,
  PJRT_Buffer_Type_S8 = 2,
  PJRT_Buffer_Type_S16 = 3,
  PJRT_Buffer_Type_S32 = 4,
  PJRT_Buffer_Type_S64 = 5,
  PJRT_Buffer_Type_U8 = 6,
  PJRT_Buffer_Type_U16 = 7,
  PJRT_Buffer_Type_U32 = 8,
  PJRT_Buffer_Type_U64 = 9,
  PJRT_Buffer_Type_F16 = 10,
  PJRT_Buffer_Type_F32 = 11,
  PJRT_Buffer_Type_F64 = 12,
  PJRT_Buffer_Type_BF16 = 13,
  PJRT_Buffer_Type_C64 = 14,
  PJRT_Buffer_Type_C128 = 15,
  PJRT_Buffer_Type_F8E5M2 = 16,
  PJRT_Buffer_Type_F8E4M3FN = 17,
  PJRT_Buffer_Type_F8E4M3B11FNUZ = 18,
  PJRT_Buffer_Type_F8E5M2FNUZ = 19,
  PJRT_Buffer_Type_F8E4M3FNUZ = 20,
  PJRT_Buffer_Type_S4 = 21,
  PJRT_Buffer_Type_U4 = 22,
  PJRT_Buffer_Type_TOKEN = 23,
  PJRT_Buffer_Type_S2 = 24,
  PJRT_Buffer_Type_U2 = 25,
  PJRT_Buffer_Type_F8E4M3 = 26,
  PJRT_Buffer_Type_F8E3M4 = 27,
  PJRT_Buffer_Type_F8E8M0FNU = 28,
  PJRT_Buffer_Type_F4E2M1FN = 29,
} PJRT_Buffer_Type;

/* How long BufferFromHostBuffer may read (or alias) the caller's data.
   Copying before the call returns is always a correct implementation. */
typedef enum {
  PJRT_HostBufferSemantics_kImmutableOnlyDuringCall = 0,
  PJRT_HostBufferSemantics_kImmutableUntilTransferCompletes = 1,
  PJRT_HostBufferSemantics_kImmutableZeroCopy = 2,
  PJRT_HostBufferSemantics_kMutableZeroCopy = 3,
} PJRT_HostBufferSemantics;

typedef enum {
  PJRT_Buffer_MemoryLayout_Type_Tiled = 0,
  PJRT_Buffer_MemoryLayout_Type_Strides = 1,
} PJRT_Buffer_MemoryLayout_Type;

/* ---- Callback types. ---- */

/* Built by the plugin and handed to the caller's callbacks so that they can
   return a PJRT_Error the plugin owns; it copies message. */
typedef PJRT_Error* (*PJRT_CallbackError)(PJRT_Error_Code code, const char* message, size_t message_size);

/* The callback owns error (it must destroy it); it may run on any thread, or
   inline when the event is already ready. */
typedef void (*PJRT_Event_OnReadyCallback)(PJRT_Error* error, void* user_arg);

/* ---- Structs with a layout (checked by TestABI). ---- */

typedef struct PJRT_Extension_Base PJRT_Extension_Base;
typedef struct PJRT_Api_Version PJRT_Api_Version;
typedef struct PJRT_NamedValue PJRT_NamedValue;
typedef struct PJRT_Error_Destroy_Args PJRT_Error_Destroy_Args;
typedef struct PJRT_Error_Message_Args PJRT_Error_Message_Args;
typedef struct PJRT_Error_GetCode_Args PJRT_Error_GetCode_Args;
typedef struct PJRT_Plugin_Initialize_Args PJRT_Plugin_Initialize_Args;
typedef struct PJRT_Plugin_Attributes_Args PJRT_Plugin_Attributes_Args;
typedef struct PJRT_Event_Destroy_Args PJRT_Event_Destroy_Args;
typedef struct PJRT_Event_IsReady_Args PJRT_Event_IsReady_Args;
typedef struct PJRT_Event_Error_Args PJRT_Event_Error_Args;
typedef struct PJRT_Event_Await_Args PJRT_Event_Await_Args;
typedef struct PJRT_Event_OnReady_Args PJRT_Event_OnReady_Args;
typedef struct PJRT_Client_Create_Args PJRT_Client_Create_Args;
typedef struct PJRT_KeyValueGetCallback_Args PJRT_KeyValueGetCallback_Args;
typedef struct PJRT_KeyValueTryGetCallback_Args PJRT_KeyValueTryGetCallback_Args;
typedef struct PJRT_KeyValuePutCallback_Args PJRT_KeyValuePutCallback_Args;
typedef struct PJRT_Client_Destroy_Args PJRT_Client_Destroy_Args;
typedef struct PJRT_Client_PlatformName_Args PJRT_Client_PlatformName_Args;
typedef struct PJRT_Client_ProcessIndex_Args PJRT_Client_ProcessIndex_Args;
typedef struct PJRT_Client_PlatformVersion_Args PJRT_Client_PlatformVersion_Args;
typedef struct PJRT_Client_TopologyDescription_Args PJRT_Client_TopologyDescription_Args;
typedef struct PJRT_Client_Devices_Args PJRT_Client_Devices_Args;
typedef struct PJRT_Client_AddressableDevices_Args PJRT_Client_AddressableDevices_Args;
typedef struct PJRT_Client_LookupDevice_Args PJRT_Client_LookupDevice_Args;
typedef struct PJRT_Client_LookupAddressableDevice_Args PJRT_Client_LookupAddressableDevice_Args;
typedef struct PJRT_Client_AddressableMemories_Args PJRT_Client_AddressableMemories_Args;
typedef struct PJRT_Client_DefaultDeviceAssignment_Args PJRT_Client_DefaultDeviceAssignment_Args;
typedef struct PJRT_DeviceDescription_Id_Args PJRT_DeviceDescription_Id_Args;
typedef struct PJRT_DeviceDescription_ProcessIndex_Args PJRT_DeviceDescription_ProcessIndex_Args;
typedef struct PJRT_DeviceDescription_Attributes_Args PJRT_DeviceDescription_Attributes_Args;
typedef struct PJRT_DeviceDescription_Kind_Args PJRT_DeviceDescription_Kind_Args;
typedef struct PJRT_DeviceDescription_DebugString_Args PJRT_DeviceDescription_DebugString_Args;
typedef struct PJRT_DeviceDescription_ToString_Args PJRT_DeviceDescription_ToString_Args;
typedef struct PJRT_Device_GetDescription_Args PJRT_Device_GetDescription_Args;
typedef struct PJRT_Device_IsAddressable_Args PJRT_Device_IsAddressable_Args;
typedef struct PJRT_Device_LocalHardwareId_Args PJRT_Device_LocalHardwareId_Args;
typedef struct PJRT_Device_AddressableMemories_Args PJRT_Device_AddressableMemories_Args;
typedef struct PJRT_Device_DefaultMemory_Args PJRT_Device_DefaultMemory_Args;
typedef struct PJRT_Memory_Id_Args PJRT_Memory_Id_Args;
typedef struct PJRT_Memory_Kind_Args PJRT_Memory_Kind_Args;
typedef struct PJRT_Memory_Kind_Id_Args PJRT_Memory_Kind_Id_Args;
typedef struct PJRT_Memory_DebugString_Args PJRT_Memory_DebugString_Args;
typedef struct PJRT_Memory_ToString_Args PJRT_Memory_ToString_Args;
typedef struct PJRT_Memory_AddressableByDevices_Args PJRT_Memory_AddressableByDevices_Args;
typedef struct PJRT_Program PJRT_Program;
typedef struct PJRT_Client_Compile_Args PJRT_Client_Compile_Args;
typedef struct PJRT_Executable_Destroy_Args PJRT_Executable_Destroy_Args;
typedef struct PJRT_LoadedExecutable_Destroy_Args PJRT_LoadedExecutable_Destroy_Args;
typedef struct PJRT_LoadedExecutable_GetExecutable_Args PJRT_LoadedExecutable_GetExecutable_Args;
typedef struct PJRT_Executable_Name_Args PJRT_Executable_Name_Args;
typedef struct PJRT_Executable_NumReplicas_Args PJRT_Executable_NumReplicas_Args;
typedef struct PJRT_Executable_NumPartitions_Args PJRT_Executable_NumPartitions_Args;
typedef struct PJRT_Executable_NumOutputs_Args PJRT_Executable_NumOutputs_Args;
typedef struct PJRT_Executable_OutputElementTypes_Args PJRT_Executable_OutputElementTypes_Args;
typedef struct PJRT_Executable_OutputDimensions_Args PJRT_Executable_OutputDimensions_Args;
typedef struct PJRT_Executable_OutputMemoryKinds_Args PJRT_Executable_OutputMemoryKinds_Args;
typedef struct PJRT_Executable_GetCompiledMemoryStats_Args PJRT_Executable_GetCompiledMemoryStats_Args;
typedef struct PJRT_Executable_SizeOfGeneratedCodeInBytes_Args PJRT_Executable_SizeOfGeneratedCodeInBytes_Args;
typedef struct PJRT_Executable_Fingerprint_Args PJRT_Executable_Fingerprint_Args;
typedef struct PJRT_Executable_GetCostAnalysis_Args PJRT_Executable_GetCostAnalysis_Args;
typedef struct PJRT_Executable_Serialize_Args PJRT_Executable_Serialize_Args;
typedef struct PJRT_Executable_DeserializeAndLoad_Args PJRT_Executable_DeserializeAndLoad_Args;
typedef struct PJRT_TopologyDescription_Create_Args PJRT_TopologyDescription_Create_Args;
typedef struct PJRT_TopologyDescription_Destroy_Args PJRT_TopologyDescription_Destroy_Args;
typedef struct PJRT_TopologyDescription_PlatformName_Args PJRT_TopologyDescription_PlatformName_Args;
typedef struct PJRT_TopologyDescription_PlatformVersion_Args PJRT_TopologyDescription_PlatformVersion_Args;
typedef struct PJRT_TopologyDescription_GetDeviceDescriptions_Args PJRT_TopologyDescription_GetDeviceDescriptions_Args;
typedef struct PJRT_TopologyDescription_Serialize_Args PJRT_TopologyDescription_Serialize_Args;
typedef struct PJRT_TopologyDescription_Attributes_Args PJRT_TopologyDescription_Attributes_Args;
typedef struct PJRT_Compile_Args PJRT_Compile_Args;
typedef struct PJRT_Executable_OptimizedProgram_Args PJRT_Executable_OptimizedProgram_Args;
typedef struct PJRT_LoadedExecutable_AddressableDevices_Args PJRT_LoadedExecutable_AddressableDevices_Args;
typedef struct PJRT_LoadedExecutable_Delete_Args PJRT_LoadedExecutable_Delete_Args;
typedef struct PJRT_LoadedExecutable_IsDeleted_Args PJRT_LoadedExecutable_IsDeleted_Args;
typedef struct PJRT_ExecuteOptions PJRT_ExecuteOptions;
typedef struct PJRT_LoadedExecutable_Execute_Args PJRT_LoadedExecutable_Execute_Args;
typedef struct PJRT_ExecuteContext_Create_Args PJRT_ExecuteContext_Create_Args;
typedef struct PJRT_ExecuteContext_Destroy_Args PJRT_ExecuteContext_Destroy_Args;
typedef struct PJRT_Buffer_MemoryLayout_Tiled PJRT_Buffer_MemoryLayout_Tiled;
typedef struct PJRT_Buffer_MemoryLayout_Strides PJRT_Buffer_MemoryLayout_Strides;
typedef struct PJRT_Buffer_MemoryLayout PJRT_Buffer_MemoryLayout;
typedef struct PJRT_Client_BufferFromHostBuffer_Args PJRT_Client_BufferFromHostBuffer_Args;
typedef struct PJRT_Client_CreateViewOfDeviceBuffer_Args PJRT_Client_CreateViewOfDeviceBuffer_Args;
typedef struct PJRT_Buffer_Destroy_Args PJRT_Buffer_Destroy_Args;
typedef struct PJRT_Buffer_ElementType_Args PJRT_Buffer_ElementType_Args;
typedef struct PJRT_Buffer_Dimensions_Args PJRT_Buffer_Dimensions_Args;
typedef struct PJRT_Buffer_UnpaddedDimensions_Args PJRT_Buffer_UnpaddedDimensions_Args;
typedef struct PJRT_Buffer_DynamicDimensionIndices_Args PJRT_Buffer_DynamicDimensionIndices_Args;
typedef struct PJRT_Buffer_GetMemoryLayout_Args PJRT_Buffer_GetMemoryLayout_Args;
typedef struct PJRT_Buffer_ToHostBuffer_Args PJRT_Buffer_ToHostBuffer_Args;
typedef struct PJRT_Buffer_OnDeviceSizeInBytes_Args PJRT_Buffer_OnDeviceSizeInBytes_Args;
typedef struct PJRT_Buffer_Delete_Args PJRT_Buffer_Delete_Args;
typedef struct PJRT_Buffer_IsDeleted_Args PJRT_Buffer_IsDeleted_Args;
typedef struct PJRT_Buffer_CopyToDevice_Args PJRT_Buffer_CopyToDevice_Args;
typedef struct PJRT_Buffer_CopyToMemory_Args PJRT_Buffer_CopyToMemory_Args;
typedef struct PJRT_Buffer_IsOnCpu_Args PJRT_Buffer_IsOnCpu_Args;
typedef struct PJRT_Buffer_Device_Args PJRT_Buffer_Device_Args;
typedef struct PJRT_Buffer_Memory_Args PJRT_Buffer_Memory_Args;
typedef struct PJRT_Buffer_ReadyEvent_Args PJRT_Buffer_ReadyEvent_Args;
typedef struct PJRT_Buffer_UnsafePointer_Args PJRT_Buffer_UnsafePointer_Args;
typedef struct PJRT_Buffer_IncreaseExternalReferenceCount_Args PJRT_Buffer_IncreaseExternalReferenceCount_Args;
typedef struct PJRT_Buffer_DecreaseExternalReferenceCount_Args PJRT_Buffer_DecreaseExternalReferenceCount_Args;
typedef struct PJRT_Buffer_OpaqueDeviceMemoryDataPointer_Args PJRT_Buffer_OpaqueDeviceMemoryDataPointer_Args;

/* Key-value store callbacks: the client implements them, the plugin calls
   them (multi-process topology exchange). Values returned by get/try_get are
   allocated by the callback, copied by the plugin, then freed with the
   value_deleter_callback the callback set. */
typedef void (*PJRT_KeyValueGetCallback_ValueDeleter)(char* value);
typedef PJRT_Error* (*PJRT_KeyValueGetCallback)(PJRT_KeyValueGetCallback_Args* args);
typedef void (*PJRT_KeyValueTryGetCallback_ValueDeleter)(char* value);
typedef PJRT_Error* (*PJRT_KeyValueTryGetCallback)(PJRT_KeyValueTryGetCallback_Args* args);
typedef PJRT_Error* (*PJRT_KeyValuePutCallback)(PJRT_KeyValuePutCallback_Args* args);

struct PJRT_Extension_Base {
  size_t struct_size;
  PJRT_Extension_Type type;
  struct PJRT_Extension_Base* next;
};
PJRT_STRUCT_END(PJRT_Extension_Base, next)

struct PJRT_Api_Version {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  int major_version;
  int minor_version;
};
PJRT_STRUCT_END(PJRT_Api_Version, minor_version)

/* A typed (name, value) pair: client create options, plugin, device and
   topology attributes. value_size is the string length or list length; for
   scalars it should be 1 but some callers send 0, so callees ignore it. */
struct PJRT_NamedValue {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  const char* name;
  size_t name_size;
  PJRT_NamedValue_Type type;
  union {
    const char* string_value;
    int64_t int64_value;
    const int64_t* int64_array_value;
    float float_value;
    bool bool_value;
  };
  size_t value_size;
};
PJRT_STRUCT_END(PJRT_NamedValue, value_size)

struct PJRT_Error_Destroy_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_Error* error;
};
PJRT_STRUCT_END(PJRT_Error_Destroy_Args, error)

struct PJRT_Error_Message_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  const PJRT_Error* error;
  const char* message;
  size_t message_size;
};
PJRT_STRUCT_END(PJRT_Error_Message_Args, message_size)

/* PJRT_Error_Destroy and PJRT_Error_Message return void; GetCode returns a
   PJRT_Error* (normally NULL) that the caller must still destroy. The
   message lives as long as the error. */
struct PJRT_Error_GetCode_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  const PJRT_Error* error;
  PJRT_Error_Code code;
};
PJRT_STRUCT_END(PJRT_Error_GetCode_Args, code)

/* Initialize runs once per library per process, before anything else; a
   plugin makes it idempotent anyway. Attributes live for the process. */
struct PJRT_Plugin_Initialize_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
};
PJRT_STRUCT_END(PJRT_Plugin_Initialize_Args, extension_start)

struct PJRT_Plugin_Attributes_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  const PJRT_NamedValue* attributes;
  size_t num_attributes;
};
PJRT_STRUCT_END(PJRT_Plugin_Attributes_Args, num_attributes)

/* Events: the caller destroys every event it receives. Await and Error
   return a new error (or NULL) each time. */
struct PJRT_Event_Destroy_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_Event* event;
};
PJRT_STRUCT_END(PJRT_Event_Destroy_Args, event)

struct PJRT_Event_IsReady_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_Event* event;
  bool is_ready;
};
PJRT_STRUCT_END(PJRT_Event_IsReady_Args, is_ready)

struct PJRT_Event_Error_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_Event* event;
};
PJRT_STRUCT_END(PJRT_Event_Error_Args, event)

struct PJRT_Event_Await_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_Event* event;
};
PJRT_STRUCT_END(PJRT_Event_Await_Args, event)

struct PJRT_Event_OnReady_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_Event* event;
  PJRT_Event_OnReadyCallback callback;
  void* user_arg;
};
PJRT_STRUCT_END(PJRT_Event_OnReady_Args, user_arg)

/* create_options are plugin-specific (the XLA CUDA plugin rejects unknown
   names and wrong types). Note that the output `client` sits between the
   put and try-get callbacks. */
struct PJRT_Client_Create_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  const PJRT_NamedValue* create_options;
  size_t num_options;
  PJRT_KeyValueGetCallback kv_get_callback;
  void* kv_get_user_arg;
  PJRT_KeyValuePutCallback kv_put_callback;
  void* kv_put_user_arg;
  PJRT_Client* client;
  PJRT_KeyValueTryGetCallback kv_try_get_callback;
  void* kv_try_get_user_arg;
};
PJRT_STRUCT_END(PJRT_Client_Create_Args, kv_try_get_user_arg)

struct PJRT_KeyValueGetCallback_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  const char* key;
  size_t key_size;
  int timeout_in_ms;
  PJRT_CallbackError* callback_error;
  void* user_arg;
  char* value;
  size_t value_size;
  PJRT_KeyValueGetCallback_ValueDeleter value_deleter_callback;
};
PJRT_STRUCT_END(PJRT_KeyValueGetCallback_Args, value_deleter_callback)

struct PJRT_KeyValueTryGetCallback_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  const char* key;
  size_t key_size;
  PJRT_CallbackError* callback_error;
  void* user_arg;
  char* value;
  size_t value_size;
  PJRT_KeyValueTryGetCallback_ValueDeleter value_deleter_callback;
};
PJRT_STRUCT_END(PJRT_KeyValueTryGetCallback_Args, value_deleter_callback)

struct PJRT_KeyValuePutCallback_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  const char* key;
  size_t key_size;
  const char* value;
  size_t value_size;
  PJRT_CallbackError* callback_error;
  void* user_arg;
};
PJRT_STRUCT_END(PJRT_KeyValuePutCallback_Args, user_arg)

struct PJRT_Client_Destroy_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_Client* client;
};
PJRT_STRUCT_END(PJRT_Client_Destroy_Args, client)

struct PJRT_Client_PlatformName_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_Client* client;
  const char* platform_name;
  size_t platform_name_size;
};
PJRT_STRUCT_END(PJRT_Client_PlatformName_Args, platform_name_size)

struct PJRT_Client_ProcessIndex_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_Client* client;
  int process_index;
};
PJRT_STRUCT_END(PJRT_Client_ProcessIndex_Args, process_index)

struct PJRT_Client_PlatformVersion_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_Client* client;
  const char* platform_version;
  size_t platform_version_size;
};
PJRT_STRUCT_END(PJRT_Client_PlatformVersion_Args, platform_version_size)

struct PJRT_Client_TopologyDescription_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_Client* client;
  PJRT_TopologyDescription* topology;
};
PJRT_STRUCT_END(PJRT_Client_TopologyDescription_Args, topology)

struct PJRT_Client_Devices_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_Client* client;
  PJRT_Device* const* devices;
  size_t num_devices;
};
PJRT_STRUCT_END(PJRT_Client_Devices_Args, num_devices)

struct PJRT_Client_AddressableDevices_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_Client* client;
  PJRT_Device* const* addressable_devices;
  size_t num_addressable_devices;
};
PJRT_STRUCT_END(PJRT_Client_AddressableDevices_Args, num_addressable_devices)

struct PJRT_Client_LookupDevice_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_Client* client;
  int id;
  PJRT_Device* device;
};
PJRT_STRUCT_END(PJRT_Client_LookupDevice_Args, device)

struct PJRT_Client_LookupAddressableDevice_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_Client* client;
  int local_hardware_id;
  PJRT_Device* addressable_device;
};
PJRT_STRUCT_END(PJRT_Client_LookupAddressableDevice_Args, addressable_device)

struct PJRT_Client_AddressableMemories_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_Client* client;
  PJRT_Memory* const* addressable_memories;
  size_t num_addressable_memories;
};
PJRT_STRUCT_END(PJRT_Client_AddressableMemories_Args, num_addressable_memories)

/* The plugin writes num_replicas*num_partitions device ids into the
   caller's array, replica-major: [r*num_partitions + p]. */
struct PJRT_Client_DefaultDeviceAssignment_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_Client* client;
  int num_replicas;
  int num_partitions;
  size_t default_assignment_size;
  int* default_assignment;
};
PJRT_STRUCT_END(PJRT_Client_DefaultDeviceAssignment_Args, default_assignment)

struct PJRT_DeviceDescription_Id_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_DeviceDescription* device_description;
  int id;
};
PJRT_STRUCT_END(PJRT_DeviceDescription_Id_Args, id)

struct PJRT_DeviceDescription_ProcessIndex_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_DeviceDescription* device_description;
  int process_index;
};
PJRT_STRUCT_END(PJRT_DeviceDescription_ProcessIndex_Args, process_index)

/* Unlike the other list outputs, the count comes before the pointer. */
struct PJRT_DeviceDescription_Attributes_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_DeviceDescription* device_description;
  size_t num_attributes;
  const PJRT_NamedValue* attributes;
};
PJRT_STRUCT_END(PJRT_DeviceDescription_Attributes_Args, attributes)

struct PJRT_DeviceDescription_Kind_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_DeviceDescription* device_description;
  const char* device_kind;
  size_t device_kind_size;
};
PJRT_STRUCT_END(PJRT_DeviceDescription_Kind_Args, device_kind_size)

struct PJRT_DeviceDescription_DebugString_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_DeviceDescription* device_description;
  const char* debug_string;
  size_t debug_string_size;
};
PJRT_STRUCT_END(PJRT_DeviceDescription_DebugString_Args, debug_string_size)

struct PJRT_DeviceDescription_ToString_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_DeviceDescription* device_description;
  const char* to_string;
  size_t to_string_size;
};
PJRT_STRUCT_END(PJRT_DeviceDescription_ToString_Args, to_string_size)

struct PJRT_Device_GetDescription_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_Device* device;
  PJRT_DeviceDescription* device_description;
};
PJRT_STRUCT_END(PJRT_Device_GetDescription_Args, device_description)

struct PJRT_Device_IsAddressable_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_Device* device;
  bool is_addressable;
};
PJRT_STRUCT_END(PJRT_Device_IsAddressable_Args, is_addressable)

struct PJRT_Device_LocalHardwareId_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_Device* device;
  int local_hardware_id;
};
PJRT_STRUCT_END(PJRT_Device_LocalHardwareId_Args, local_hardware_id)

struct PJRT_Device_AddressableMemories_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_Device* device;
  PJRT_Memory* const* memories;
  size_t num_memories;
};
PJRT_STRUCT_END(PJRT_Device_AddressableMemories_Args, num_memories)

struct PJRT_Device_DefaultMemory_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_Device* device;
  PJRT_Memory* memory;
};
PJRT_STRUCT_END(PJRT_Device_DefaultMemory_Args, memory)

struct PJRT_Memory_Id_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_Memory* memory;
  int id;
};
PJRT_STRUCT_END(PJRT_Memory_Id_Args, id)

struct PJRT_Memory_Kind_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_Memory* memory;
  const char* kind;
  size_t kind_size;
};
PJRT_STRUCT_END(PJRT_Memory_Kind_Args, kind_size)

struct PJRT_Memory_Kind_Id_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_Memory* memory;
  int kind_id;
};
PJRT_STRUCT_END(PJRT_Memory_Kind_Id_Args, kind_id)

struct PJRT_Memory_DebugString_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_Memory* memory;
  const char* debug_string;
  size_t debug_string_size;
};
PJRT_STRUCT_END(PJRT_Memory_DebugString_Args, debug_string_size)

struct PJRT_Memory_ToString_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_Memory* memory;
  const char* to_string;
  size_t to_string_size;
};
PJRT_STRUCT_END(PJRT_Memory_ToString_Args, to_string_size)

struct PJRT_Memory_AddressableByDevices_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_Memory* memory;
  PJRT_Device* const* devices;
  size_t num_devices;
};
PJRT_STRUCT_END(PJRT_Memory_AddressableByDevices_Args, num_devices)

/* format is "mlir" (StableHLO text or MLIR bytecode), "hlo" or
   "hlo_with_config"; code is not NUL-terminated: use code_size. */
struct PJRT_Program {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  char* code;
  size_t code_size;
  const char* format;
  size_t format_size;
};
PJRT_STRUCT_END(PJRT_Program, format_size)

/* compile_options is a serialized xla.CompileOptionsProto. Everything
   passed in is valid only during the call. */
struct PJRT_Client_Compile_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_Client* client;
  const PJRT_Program* program;
  const char* compile_options;
  size_t compile_options_size;
  PJRT_LoadedExecutable* executable;
};
PJRT_STRUCT_END(PJRT_Client_Compile_Args, executable)

struct PJRT_Executable_Destroy_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_Executable* executable;
};
PJRT_STRUCT_END(PJRT_Executable_Destroy_Args, executable)

struct PJRT_LoadedExecutable_Destroy_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_LoadedExecutable* executable;
};
PJRT_STRUCT_END(PJRT_LoadedExecutable_Destroy_Args, executable)

struct PJRT_LoadedExecutable_GetExecutable_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_LoadedExecutable* loaded_executable;
  PJRT_Executable* executable;
};
PJRT_STRUCT_END(PJRT_LoadedExecutable_GetExecutable_Args, executable)

struct PJRT_Executable_Name_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_Executable* executable;
  const char* executable_name;
  size_t executable_name_size;
};
PJRT_STRUCT_END(PJRT_Executable_Name_Args, executable_name_size)

struct PJRT_Executable_NumReplicas_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_Executable* executable;
  size_t num_replicas;
};
PJRT_STRUCT_END(PJRT_Executable_NumReplicas_Args, num_replicas)

struct PJRT_Executable_NumPartitions_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_Executable* executable;
  size_t num_partitions;
};
PJRT_STRUCT_END(PJRT_Executable_NumPartitions_Args, num_partitions)

struct PJRT_Executable_NumOutputs_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_Executable* executable;
  size_t num_outputs;
};
PJRT_STRUCT_END(PJRT_Executable_NumOutputs_Args, num_outputs)

struct PJRT_Executable_OutputElementTypes_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_Executable* executable;
  PJRT_Buffer_Type* output_types;
  size_t num_output_types;
};
PJRT_STRUCT_END(PJRT_Executable_OutputElementTypes_Args, num_output_types)

struct PJRT_Executable_OutputDimensions_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_Executable* executable;
  size_t num_outputs;
  const int64_t* dims;
  const size_t* dim_sizes;
};
PJRT_STRUCT_END(PJRT_Executable_OutputDimensions_Args, dim_sizes)

struct PJRT_Executable_OutputMemoryKinds_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_Executable* executable;
  size_t num_outputs;
  const char* const* memory_kinds;
  const size_t* memory_kind_sizes;
};
PJRT_STRUCT_END(PJRT_Executable_OutputMemoryKinds_Args, memory_kind_sizes)

/* gopjrt treats an error here as a compile failure: plugins return zeros
   rather than UNIMPLEMENTED. */
struct PJRT_Executable_GetCompiledMemoryStats_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_Executable* executable;
  int64_t generated_code_size_in_bytes;
  int64_t argument_size_in_bytes;
  int64_t output_size_in_bytes;
  int64_t alias_size_in_bytes;
  int64_t temp_size_in_bytes;
  int64_t host_generated_code_size_in_bytes;
  int64_t host_argument_size_in_bytes;
  int64_t host_output_size_in_bytes;
  int64_t host_alias_size_in_bytes;
  int64_t host_temp_size_in_bytes;
  int64_t peak_memory_in_bytes;
};
PJRT_STRUCT_END(PJRT_Executable_GetCompiledMemoryStats_Args, peak_memory_in_bytes)

struct PJRT_Executable_SizeOfGeneratedCodeInBytes_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_Executable* executable;
  int64_t size_in_bytes;
};
PJRT_STRUCT_END(PJRT_Executable_SizeOfGeneratedCodeInBytes_Args, size_in_bytes)

struct PJRT_Executable_Fingerprint_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_Executable* executable;
  const char* executable_fingerprint;
  size_t executable_fingerprint_size;
};
PJRT_STRUCT_END(PJRT_Executable_Fingerprint_Args, executable_fingerprint_size)

struct PJRT_Executable_OptimizedProgram_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_Executable* executable;
  PJRT_Program* program;
};
PJRT_STRUCT_END(PJRT_Executable_OptimizedProgram_Args, program)

struct PJRT_LoadedExecutable_AddressableDevices_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_LoadedExecutable* executable;
  PJRT_Device* const* addressable_devices;
  size_t num_addressable_devices;
};
PJRT_STRUCT_END(PJRT_LoadedExecutable_AddressableDevices_Args, num_addressable_devices)

struct PJRT_LoadedExecutable_Delete_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_LoadedExecutable* executable;
};
PJRT_STRUCT_END(PJRT_LoadedExecutable_Delete_Args, executable)

struct PJRT_LoadedExecutable_IsDeleted_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_LoadedExecutable* executable;
  bool is_deleted;
};
PJRT_STRUCT_END(PJRT_LoadedExecutable_IsDeleted_Args, is_deleted)

struct PJRT_ExecuteOptions {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_SendCallbackInfo** send_callbacks;
  PJRT_RecvCallbackInfo** recv_callbacks;
  size_t num_send_ops;
  size_t num_recv_ops;
  int launch_id;
  const int64_t* non_donatable_input_indices;
  size_t num_non_donatable_input_indices;
  PJRT_ExecuteContext* context;
  const char* call_location;
  size_t num_tasks;
  int* task_ids;
  int64_t* incarnation_ids;
};
PJRT_STRUCT_END(PJRT_ExecuteOptions, incarnation_ids)

/* Execute contexts: per-execution state a caller passes in
   PJRT_ExecuteOptions.context. Stela's CPU plugin makes each one a
   cancellation handle (docs/cpu-plugin.md, "Deadlines and cancellation"). */
struct PJRT_ExecuteContext_Create_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_ExecuteContext* context;
};
PJRT_STRUCT_END(PJRT_ExecuteContext_Create_Args, context)

struct PJRT_ExecuteContext_Destroy_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_ExecuteContext* context;
};
PJRT_STRUCT_END(PJRT_ExecuteContext_Destroy_Args, context)

/* argument_lists[d][a] and output_lists[d][o] for each of num_devices
   devices; output arrays and device_complete_events (may be NULL) are the
   caller's, the buffers and events written into them are new. A non-NULL
   execute_device runs a portable executable on that device (num_devices 1);
   NULL runs on the devices of the compile-time device assignment. On error
   nothing is written that the caller must free. */
struct PJRT_LoadedExecutable_Execute_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_LoadedExecutable* executable;
  PJRT_ExecuteOptions* options;
  PJRT_Buffer* const* const* argument_lists;
  size_t num_devices;
  size_t num_args;
  PJRT_Buffer** const* output_lists;
  PJRT_Event** device_complete_events;
  PJRT_Device* execute_device;
};
PJRT_STRUCT_END(PJRT_LoadedExecutable_Execute_Args, execute_device)

struct PJRT_Buffer_MemoryLayout_Tiled {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  const int64_t* minor_to_major;
  size_t minor_to_major_size;
  const int64_t* tile_dims;
  const size_t* tile_dim_sizes;
  size_t num_tiles;
};
PJRT_STRUCT_END(PJRT_Buffer_MemoryLayout_Tiled, num_tiles)

struct PJRT_Buffer_MemoryLayout_Strides {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  const int64_t* byte_strides;
  size_t num_byte_strides;
};
PJRT_STRUCT_END(PJRT_Buffer_MemoryLayout_Strides, num_byte_strides)

/* A layout: type selects the union member. Inner struct_size fields are
   not validated (gopjrt leaves tiled.struct_size 0). */
struct PJRT_Buffer_MemoryLayout {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  union {
    PJRT_Buffer_MemoryLayout_Tiled tiled;
    PJRT_Buffer_MemoryLayout_Strides strides;
  };
  PJRT_Buffer_MemoryLayout_Type type;
};
PJRT_STRUCT_END(PJRT_Buffer_MemoryLayout, type)

/* byte_strides: NULL/0 for dense row-major, else one stride per
   dimension in bytes (may be negative: then data points inside the
   array). memory, if set, wins over device. The caller may release data
   when done_with_host_buffer fires (the semantics say when it may be read). */
struct PJRT_Client_BufferFromHostBuffer_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_Client* client;
  const void* data;
  PJRT_Buffer_Type type;
  const int64_t* dims;
  size_t num_dims;
  const int64_t* byte_strides;
  size_t num_byte_strides;
  PJRT_HostBufferSemantics host_buffer_semantics;
  PJRT_Device* device;
  PJRT_Memory* memory;
  PJRT_Buffer_MemoryLayout* device_layout;
  PJRT_Event* done_with_host_buffer;
  PJRT_Buffer* buffer;
};
PJRT_STRUCT_END(PJRT_Client_BufferFromHostBuffer_Args, buffer)

struct PJRT_Client_CreateViewOfDeviceBuffer_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_Client* client;
  void* device_buffer_ptr;
  const int64_t* dims;
  size_t num_dims;
  PJRT_Buffer_Type element_type;
  PJRT_Buffer_MemoryLayout* layout;
  PJRT_Device* device;
  void (*on_delete_callback)(void* device_buffer_ptr, void* user_arg);
  void* on_delete_callback_arg;
  intptr_t stream;
  PJRT_Buffer* buffer;
  PJRT_Memory* memory;
};
PJRT_STRUCT_END(PJRT_Client_CreateViewOfDeviceBuffer_Args, memory)

struct PJRT_Buffer_Destroy_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_Buffer* buffer;
};
PJRT_STRUCT_END(PJRT_Buffer_Destroy_Args, buffer)

struct PJRT_Buffer_ElementType_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_Buffer* buffer;
  PJRT_Buffer_Type type;
};
PJRT_STRUCT_END(PJRT_Buffer_ElementType_Args, type)

struct PJRT_Buffer_Dimensions_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_Buffer* buffer;
  const int64_t* dims;
  size_t num_dims;
};
PJRT_STRUCT_END(PJRT_Buffer_Dimensions_Args, num_dims)

struct PJRT_Buffer_UnpaddedDimensions_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_Buffer* buffer;
  const int64_t* unpadded_dims;
  size_t num_dims;
};
PJRT_STRUCT_END(PJRT_Buffer_UnpaddedDimensions_Args, num_dims)

struct PJRT_Buffer_DynamicDimensionIndices_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_Buffer* buffer;
  const size_t* dynamic_dim_indices;
  size_t num_dynamic_dims;
};
PJRT_STRUCT_END(PJRT_Buffer_DynamicDimensionIndices_Args, num_dynamic_dims)

struct PJRT_Buffer_GetMemoryLayout_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_Buffer* buffer;
  PJRT_Buffer_MemoryLayout layout;
};
PJRT_STRUCT_END(PJRT_Buffer_GetMemoryLayout_Args, layout)

/* With dst NULL the plugin only sets dst_size (no copy, no event).
   host_layout NULL means the buffer's own layout. */
struct PJRT_Buffer_ToHostBuffer_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_Buffer* src;
  PJRT_Buffer_MemoryLayout* host_layout;
  void* dst;
  size_t dst_size;
  PJRT_Event* event;
};
PJRT_STRUCT_END(PJRT_Buffer_ToHostBuffer_Args, event)

struct PJRT_Buffer_OnDeviceSizeInBytes_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_Buffer* buffer;
  size_t on_device_size_in_bytes;
};
PJRT_STRUCT_END(PJRT_Buffer_OnDeviceSizeInBytes_Args, on_device_size_in_bytes)

struct PJRT_Buffer_Delete_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_Buffer* buffer;
};
PJRT_STRUCT_END(PJRT_Buffer_Delete_Args, buffer)

struct PJRT_Buffer_IsDeleted_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_Buffer* buffer;
  bool is_deleted;
};
PJRT_STRUCT_END(PJRT_Buffer_IsDeleted_Args, is_deleted)

struct PJRT_Buffer_CopyToDevice_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_Buffer* buffer;
  PJRT_Device* dst_device;
  PJRT_Buffer* dst_buffer;
};
PJRT_STRUCT_END(PJRT_Buffer_CopyToDevice_Args, dst_buffer)

struct PJRT_Buffer_CopyToMemory_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_Buffer* buffer;
  PJRT_Memory* dst_memory;
  PJRT_Buffer* dst_buffer;
};
PJRT_STRUCT_END(PJRT_Buffer_CopyToMemory_Args, dst_buffer)

struct PJRT_Buffer_IsOnCpu_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_Buffer* buffer;
  bool is_on_cpu;
};
PJRT_STRUCT_END(PJRT_Buffer_IsOnCpu_Args, is_on_cpu)

struct PJRT_Buffer_Device_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_Buffer* buffer;
  PJRT_Device* device;
};
PJRT_STRUCT_END(PJRT_Buffer_Device_Args, device)

struct PJRT_Buffer_Memory_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_Buffer* buffer;
  PJRT_Memory* memory;
};
PJRT_STRUCT_END(PJRT_Buffer_Memory_Args, memory)

struct PJRT_Buffer_ReadyEvent_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_Buffer* buffer;
  PJRT_Event* event;
};
PJRT_STRUCT_END(PJRT_Buffer_ReadyEvent_Args, event)

struct PJRT_Buffer_UnsafePointer_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_Buffer* buffer;
  uintptr_t buffer_pointer;
};
PJRT_STRUCT_END(PJRT_Buffer_UnsafePointer_Args, buffer_pointer)

struct PJRT_Buffer_IncreaseExternalReferenceCount_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_Buffer* buffer;
};
PJRT_STRUCT_END(PJRT_Buffer_IncreaseExternalReferenceCount_Args, buffer)

struct PJRT_Buffer_DecreaseExternalReferenceCount_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_Buffer* buffer;
};
PJRT_STRUCT_END(PJRT_Buffer_DecreaseExternalReferenceCount_Args, buffer)

struct PJRT_Buffer_OpaqueDeviceMemoryDataPointer_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_Buffer* buffer;
  void* device_memory_ptr;
};
PJRT_STRUCT_END(PJRT_Buffer_OpaqueDeviceMemoryDataPointer_Args, device_memory_ptr)

/* ---- Ahead-of-time compilation: topologies, client-less compiles,
   executables' analyses and serialization. ---- */

/* A cost analysis's properties ("flops", "bytes accessed", ...) are owned
   by the executable. */
struct PJRT_Executable_GetCostAnalysis_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_Executable* executable;
  size_t num_properties;
  const PJRT_NamedValue* properties;
};
PJRT_STRUCT_END(PJRT_Executable_GetCostAnalysis_Args, properties)

/* serialized_bytes lives as long as serialized_executable, which the
   caller frees by calling serialized_executable_deleter once. */
struct PJRT_Executable_Serialize_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  const PJRT_Executable* executable;
  const char* serialized_bytes;
  size_t serialized_bytes_size;
  PJRT_SerializedExecutable* serialized_executable;
  void (*serialized_executable_deleter)(PJRT_SerializedExecutable* exec);
};
PJRT_STRUCT_END(PJRT_Executable_Serialize_Args, serialized_executable_deleter)

/* overridden_serialized_compile_options may be NULL: the executable's own
   options are used. */
struct PJRT_Executable_DeserializeAndLoad_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_Client* client;
  const char* serialized_executable;
  size_t serialized_executable_size;
  PJRT_LoadedExecutable* loaded_executable;
  const char* overridden_serialized_compile_options;
  size_t overridden_serialized_compile_options_size;
};
PJRT_STRUCT_END(PJRT_Executable_DeserializeAndLoad_Args, overridden_serialized_compile_options_size)

/* topology_name is plugin-specific ("v5e:2x2" for libtpu). */
struct PJRT_TopologyDescription_Create_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  const char* topology_name;
  size_t topology_name_size;
  const PJRT_NamedValue* create_options;
  size_t num_options;
  PJRT_TopologyDescription* topology;
};
PJRT_STRUCT_END(PJRT_TopologyDescription_Create_Args, topology)

struct PJRT_TopologyDescription_Destroy_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_TopologyDescription* topology;
};
PJRT_STRUCT_END(PJRT_TopologyDescription_Destroy_Args, topology)

struct PJRT_TopologyDescription_PlatformName_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  const PJRT_TopologyDescription* topology;
  const char* platform_name;
  size_t platform_name_size;
};
PJRT_STRUCT_END(PJRT_TopologyDescription_PlatformName_Args, platform_name_size)

struct PJRT_TopologyDescription_PlatformVersion_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_TopologyDescription* topology;
  const char* platform_version;
  size_t platform_version_size;
};
PJRT_STRUCT_END(PJRT_TopologyDescription_PlatformVersion_Args, platform_version_size)

/* The descriptions are owned by the topology. */
struct PJRT_TopologyDescription_GetDeviceDescriptions_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  const PJRT_TopologyDescription* topology;
  PJRT_DeviceDescription* const* descriptions;
  size_t num_descriptions;
};
PJRT_STRUCT_END(PJRT_TopologyDescription_GetDeviceDescriptions_Args, num_descriptions)

/* serialized_bytes lives as long as serialized_topology, which the caller
   frees by calling serialized_topology_deleter once. */
struct PJRT_TopologyDescription_Serialize_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_TopologyDescription* topology;
  const char* serialized_bytes;
  size_t serialized_bytes_size;
  PJRT_SerializedTopology* serialized_topology;
  void (*serialized_topology_deleter)(PJRT_SerializedTopology* serialized_topology);
};
PJRT_STRUCT_END(PJRT_TopologyDescription_Serialize_Args, serialized_topology_deleter)

struct PJRT_TopologyDescription_Attributes_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_TopologyDescription* topology;
  const PJRT_NamedValue* attributes;
  size_t num_attributes;
};
PJRT_STRUCT_END(PJRT_TopologyDescription_Attributes_Args, num_attributes)

/* A compile without a client: the executable is unloaded (it can be
   analysed and serialized, not run). client is optional. */
struct PJRT_Compile_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  const PJRT_TopologyDescription* topology;
  const PJRT_Program* program;
  const char* compile_options;
  size_t compile_options_size;
  PJRT_Client* client;
  PJRT_Executable* executable;
};
PJRT_STRUCT_END(PJRT_Compile_Args, executable)

/* ---- Args of the functions Stela neither calls nor implements. ---- */

typedef struct PJRT_Device_MemoryStats_Args PJRT_Device_MemoryStats_Args;
typedef struct PJRT_LoadedExecutable_Fingerprint_Args PJRT_LoadedExecutable_Fingerprint_Args;
typedef struct PJRT_CopyToDeviceStream_Destroy_Args PJRT_CopyToDeviceStream_Destroy_Args;
typedef struct PJRT_CopyToDeviceStream_AddChunk_Args PJRT_CopyToDeviceStream_AddChunk_Args;
typedef struct PJRT_CopyToDeviceStream_TotalBytes_Args PJRT_CopyToDeviceStream_TotalBytes_Args;
typedef struct PJRT_CopyToDeviceStream_GranuleSize_Args PJRT_CopyToDeviceStream_GranuleSize_Args;
typedef struct PJRT_CopyToDeviceStream_CurrentBytes_Args PJRT_CopyToDeviceStream_CurrentBytes_Args;
typedef struct PJRT_Buffer_CopyRawToHost_Args PJRT_Buffer_CopyRawToHost_Args;
typedef struct PJRT_AsyncHostToDeviceTransferManager_Destroy_Args PJRT_AsyncHostToDeviceTransferManager_Destroy_Args;
typedef struct PJRT_AsyncHostToDeviceTransferManager_TransferData_Args PJRT_AsyncHostToDeviceTransferManager_TransferData_Args;
typedef struct PJRT_Client_CreateBuffersForAsyncHostToDevice_Args PJRT_Client_CreateBuffersForAsyncHostToDevice_Args;
typedef struct PJRT_AsyncHostToDeviceTransferManager_RetrieveBuffer_Args PJRT_AsyncHostToDeviceTransferManager_RetrieveBuffer_Args;
typedef struct PJRT_AsyncHostToDeviceTransferManager_Device_Args PJRT_AsyncHostToDeviceTransferManager_Device_Args;
typedef struct PJRT_AsyncHostToDeviceTransferManager_BufferCount_Args PJRT_AsyncHostToDeviceTransferManager_BufferCount_Args;
typedef struct PJRT_AsyncHostToDeviceTransferManager_BufferSize_Args PJRT_AsyncHostToDeviceTransferManager_BufferSize_Args;
typedef struct PJRT_AsyncHostToDeviceTransferManager_SetBufferError_Args PJRT_AsyncHostToDeviceTransferManager_SetBufferError_Args;
typedef struct PJRT_AsyncHostToDeviceTransferManager_AddMetadata_Args PJRT_AsyncHostToDeviceTransferManager_AddMetadata_Args;
typedef struct PJRT_Client_DmaMap_Args PJRT_Client_DmaMap_Args;
typedef struct PJRT_Client_DmaUnmap_Args PJRT_Client_DmaUnmap_Args;
typedef struct PJRT_Client_CreateUninitializedBuffer_Args PJRT_Client_CreateUninitializedBuffer_Args;
typedef struct PJRT_Client_UpdateGlobalProcessInfo_Args PJRT_Client_UpdateGlobalProcessInfo_Args;
typedef struct PJRT_TopologyDescription_Deserialize_Args PJRT_TopologyDescription_Deserialize_Args;
typedef struct PJRT_Client_CreateAliasBuffer_Args PJRT_Client_CreateAliasBuffer_Args;
typedef struct PJRT_Client_FulfillAliasBuffer_Args PJRT_Client_FulfillAliasBuffer_Args;
typedef struct PJRT_LoadedExecutable_GetDeviceAssignment_Args PJRT_LoadedExecutable_GetDeviceAssignment_Args;

/* ---- Function types, one per PJRT_Api slot. All but the first two
   return NULL on success or an error the caller must destroy. ---- */

typedef void PJRT_Error_Destroy(PJRT_Error_Destroy_Args* args);
typedef void PJRT_Error_Message(PJRT_Error_Message_Args* args);
typedef PJRT_Error* PJRT_Error_GetCode(PJRT_Error_GetCode_Args* args);
typedef PJRT_Error* PJRT_Plugin_Initialize(PJRT_Plugin_Initialize_Args* args);
typedef PJRT_Error* PJRT_Plugin_Attributes(PJRT_Plugin_Attributes_Args* args);
typedef PJRT_Error* PJRT_Event_Destroy(PJRT_Event_Destroy_Args* args);
typedef PJRT_Error* PJRT_Event_IsReady(PJRT_Event_IsReady_Args* args);
typedef PJRT_Error* PJRT_Event_Error(PJRT_Event_Error_Args* args);
typedef PJRT_Error* PJRT_Event_Await(PJRT_Event_Await_Args* args);
typedef PJRT_Error* PJRT_Event_OnReady(PJRT_Event_OnReady_Args* args);
typedef PJRT_Error* PJRT_Client_Create(PJRT_Client_Create_Args* args);
typedef PJRT_Error* PJRT_Client_Destroy(PJRT_Client_Destroy_Args* args);
typedef PJRT_Error* PJRT_Client_PlatformName(PJRT_Client_PlatformName_Args* args);
typedef PJRT_Error* PJRT_Client_ProcessIndex(PJRT_Client_ProcessIndex_Args* args);
typedef PJRT_Error* PJRT_Client_PlatformVersion(PJRT_Client_PlatformVersion_Args* args);
typedef PJRT_Error* PJRT_Client_Devices(PJRT_Client_Devices_Args* args);
typedef PJRT_Error* PJRT_Client_AddressableDevices(PJRT_Client_AddressableDevices_Args* args);
typedef PJRT_Error* PJRT_Client_LookupDevice(PJRT_Client_LookupDevice_Args* args);
typedef PJRT_Error* PJRT_Client_LookupAddressableDevice(PJRT_Client_LookupAddressableDevice_Args* args);
typedef PJRT_Error* PJRT_Client_AddressableMemories(PJRT_Client_AddressableMemories_Args* args);
typedef PJRT_Error* PJRT_Client_Compile(PJRT_Client_Compile_Args* args);
typedef PJRT_Error* PJRT_Client_DefaultDeviceAssignment(PJRT_Client_DefaultDeviceAssignment_Args* args);
typedef PJRT_Error* PJRT_Client_BufferFromHostBuffer(PJRT_Client_BufferFromHostBuffer_Args* args);
typedef PJRT_Error* PJRT_DeviceDescription_Id(PJRT_DeviceDescription_Id_Args* args);
typedef PJRT_Error* PJRT_DeviceDescription_ProcessIndex(PJRT_DeviceDescription_ProcessIndex_Args* args);
typedef PJRT_Error* PJRT_DeviceDescription_Attributes(PJRT_DeviceDescription_Attributes_Args* args);
typedef PJRT_Error* PJRT_DeviceDescription_Kind(PJRT_DeviceDescription_Kind_Args* args);
typedef PJRT_Error* PJRT_DeviceDescription_DebugString(PJRT_DeviceDescription_DebugString_Args* args);
typedef PJRT_Error* PJRT_DeviceDescription_ToString(PJRT_DeviceDescription_ToString_Args* args);
typedef PJRT_Error* PJRT_Device_GetDescription(PJRT_Device_GetDescription_Args* args);
typedef PJRT_Error* PJRT_Device_IsAddressable(PJRT_Device_IsAddressable_Args* args);
typedef PJRT_Error* PJRT_Device_LocalHardwareId(PJRT_Device_LocalHardwareId_Args* args);
typedef PJRT_Error* PJRT_Device_AddressableMemories(PJRT_Device_AddressableMemories_Args* args);
typedef PJRT_Error* PJRT_Device_DefaultMemory(PJRT_Device_DefaultMemory_Args* args);
typedef PJRT_Error* PJRT_Device_MemoryStats(PJRT_Device_MemoryStats_Args* args);
typedef PJRT_Error* PJRT_Memory_Id(PJRT_Memory_Id_Args* args);
typedef PJRT_Error* PJRT_Memory_Kind(PJRT_Memory_Kind_Args* args);
typedef PJRT_Error* PJRT_Memory_DebugString(PJRT_Memory_DebugString_Args* args);
typedef PJRT_Error* PJRT_Memory_ToString(PJRT_Memory_ToString_Args* args);
typedef PJRT_Error* PJRT_Memory_AddressableByDevices(PJRT_Memory_AddressableByDevices_Args* args);
typedef PJRT_Error* PJRT_Executable_Destroy(PJRT_Executable_Destroy_Args* args);
typedef PJRT_Error* PJRT_Executable_Name(PJRT_Executable_Name_Args* args);
typedef PJRT_Error* PJRT_Executable_NumReplicas(PJRT_Executable_NumReplicas_Args* args);
typedef PJRT_Error* PJRT_Executable_NumPartitions(PJRT_Executable_NumPartitions_Args* args);
typedef PJRT_Error* PJRT_Executable_NumOutputs(PJRT_Executable_NumOutputs_Args* args);
typedef PJRT_Error* PJRT_Executable_SizeOfGeneratedCodeInBytes(PJRT_Executable_SizeOfGeneratedCodeInBytes_Args* args);
typedef PJRT_Error* PJRT_Executable_GetCostAnalysis(PJRT_Executable_GetCostAnalysis_Args* args);
typedef PJRT_Error* PJRT_Executable_OutputMemoryKinds(PJRT_Executable_OutputMemoryKinds_Args* args);
typedef PJRT_Error* PJRT_Executable_OptimizedProgram(PJRT_Executable_OptimizedProgram_Args* args);
typedef PJRT_Error* PJRT_Executable_Serialize(PJRT_Executable_Serialize_Args* args);
typedef PJRT_Error* PJRT_LoadedExecutable_Destroy(PJRT_LoadedExecutable_Destroy_Args* args);
typedef PJRT_Error* PJRT_LoadedExecutable_GetExecutable(PJRT_LoadedExecutable_GetExecutable_Args* args);
typedef PJRT_Error* PJRT_LoadedExecutable_AddressableDevices(PJRT_LoadedExecutable_AddressableDevices_Args* args);
typedef PJRT_Error* PJRT_LoadedExecutable_Delete(PJRT_LoadedExecutable_Delete_Args* args);
typedef PJRT_Error* PJRT_LoadedExecutable_IsDeleted(PJRT_LoadedExecutable_IsDeleted_Args* args);
typedef PJRT_Error* PJRT_LoadedExecutable_Execute(PJRT_LoadedExecutable_Execute_Args* args);
typedef PJRT_Error* PJRT_Executable_DeserializeAndLoad(PJRT_Executable_DeserializeAndLoad_Args* args);
typedef PJRT_Error* PJRT_LoadedExecutable_Fingerprint(PJRT_LoadedExecutable_Fingerprint_Args* args);
typedef PJRT_Error* PJRT_Buffer_Destroy(PJRT_Buffer_Destroy_Args* args);
typedef PJRT_Error* PJRT_Buffer_ElementType(PJRT_Buffer_ElementType_Args* args);
typedef PJRT_Error* PJRT_Buffer_Dimensions(PJRT_Buffer_Dimensions_Args* args);
typedef PJRT_Error* PJRT_Buffer_UnpaddedDimensions(PJRT_Buffer_UnpaddedDimensions_Args* args);
typedef PJRT_Error* PJRT_Buffer_DynamicDimensionIndices(PJRT_Buffer_DynamicDimensionIndices_Args* args);
typedef PJRT_Error* PJRT_Buffer_GetMemoryLayout(PJRT_Buffer_GetMemoryLayout_Args* args);
typedef PJRT_Error* PJRT_Buffer_OnDeviceSizeInBytes(PJRT_Buffer_OnDeviceSizeInBytes_Args* args);
typedef PJRT_Error* PJRT_Buffer_Device(PJRT_Buffer_Device_Args* args);
typedef PJRT_Error* PJRT_Buffer_Memory(PJRT_Buffer_Memory_Args* args);
typedef PJRT_Error* PJRT_Buffer_Delete(PJRT_Buffer_Delete_Args* args);
typedef PJRT_Error* PJRT_Buffer_IsDeleted(PJRT_Buffer_IsDeleted_Args* args);
typedef PJRT_Error* PJRT_Buffer_CopyToDevice(PJRT_Buffer_CopyToDevice_Args* args);
typedef PJRT_Error* PJRT_Buffer_ToHostBuffer(PJRT_Buffer_ToHostBuffer_Args* args);
typedef PJRT_Error* PJRT_Buffer_IsOnCpu(PJRT_Buffer_IsOnCpu_Args* args);
typedef PJRT_Error* PJRT_Buffer_ReadyEvent(PJRT_Buffer_ReadyEvent_Args* args);
typedef PJRT_Error* PJRT_Buffer_UnsafePointer(PJRT_Buffer_UnsafePointer_Args* args);
typedef PJRT_Error* PJRT_Buffer_IncreaseExternalReferenceCount(PJRT_Buffer_IncreaseExternalReferenceCount_Args* args);
typedef PJRT_Error* PJRT_Buffer_DecreaseExternalReferenceCount(PJRT_Buffer_DecreaseExternalReferenceCount_Args* args);
typedef PJRT_Error* PJRT_Buffer_OpaqueDeviceMemoryDataPointer(PJRT_Buffer_OpaqueDeviceMemoryDataPointer_Args* args);
typedef PJRT_Error* PJRT_CopyToDeviceStream_Destroy(PJRT_CopyToDeviceStream_Destroy_Args* args);
typedef PJRT_Error* PJRT_CopyToDeviceStream_AddChunk(PJRT_CopyToDeviceStream_AddChunk_Args* args);
typedef PJRT_Error* PJRT_CopyToDeviceStream_TotalBytes(PJRT_CopyToDeviceStream_TotalBytes_Args* args);
typedef PJRT_Error* PJRT_CopyToDeviceStream_GranuleSize(PJRT_CopyToDeviceStream_GranuleSize_Args* args);
typedef PJRT_Error* PJRT_CopyToDeviceStream_CurrentBytes(PJRT_CopyToDeviceStream_CurrentBytes_Args* args);
typedef PJRT_Error* PJRT_TopologyDescription_Create(PJRT_TopologyDescription_Create_Args* args);
typedef PJRT_Error* PJRT_TopologyDescription_Destroy(PJRT_TopologyDescription_Destroy_Args* args);
typedef PJRT_Error* PJRT_TopologyDescription_PlatformName(PJRT_TopologyDescription_PlatformName_Args* args);
typedef PJRT_Error* PJRT_TopologyDescription_PlatformVersion(PJRT_TopologyDescription_PlatformVersion_Args* args);
typedef PJRT_Error* PJRT_TopologyDescription_GetDeviceDescriptions(PJRT_TopologyDescription_GetDeviceDescriptions_Args* args);
typedef PJRT_Error* PJRT_TopologyDescription_Serialize(PJRT_TopologyDescription_Serialize_Args* args);
typedef PJRT_Error* PJRT_TopologyDescription_Attributes(PJRT_TopologyDescription_Attributes_Args* args);
typedef PJRT_Error* PJRT_Compile(PJRT_Compile_Args* args);
typedef PJRT_Error* PJRT_Executable_OutputElementTypes(PJRT_Executable_OutputElementTypes_Args* args);
typedef PJRT_Error* PJRT_Executable_OutputDimensions(PJRT_Executable_OutputDimensions_Args* args);
typedef PJRT_Error* PJRT_Buffer_CopyToMemory(PJRT_Buffer_CopyToMemory_Args* args);
typedef PJRT_Error* PJRT_Client_CreateViewOfDeviceBuffer(PJRT_Client_CreateViewOfDeviceBuffer_Args* args);
typedef PJRT_Error* PJRT_Executable_Fingerprint(PJRT_Executable_Fingerprint_Args* args);
typedef PJRT_Error* PJRT_Client_TopologyDescription(PJRT_Client_TopologyDescription_Args* args);
typedef PJRT_Error* PJRT_Executable_GetCompiledMemoryStats(PJRT_Executable_GetCompiledMemoryStats_Args* args);
typedef PJRT_Error* PJRT_Memory_Kind_Id(PJRT_Memory_Kind_Id_Args* args);
typedef PJRT_Error* PJRT_ExecuteContext_Create(PJRT_ExecuteContext_Create_Args* args);
typedef PJRT_Error* PJRT_ExecuteContext_Destroy(PJRT_ExecuteContext_Destroy_Args* args);
typedef PJRT_Error* PJRT_Buffer_CopyRawToHost(PJRT_Buffer_CopyRawToHost_Args* args);
typedef PJRT_Error* PJRT_AsyncHostToDeviceTransferManager_Destroy(PJRT_AsyncHostToDeviceTransferManager_Destroy_Args* args);
typedef PJRT_Error* PJRT_AsyncHostToDeviceTransferManager_TransferData(PJRT_AsyncHostToDeviceTransferManager_TransferData_Args* args);
typedef PJRT_Error* PJRT_Client_CreateBuffersForAsyncHostToDevice(PJRT_Client_CreateBuffersForAsyncHostToDevice_Args* args);
typedef PJRT_Error* PJRT_AsyncHostToDeviceTransferManager_RetrieveBuffer(PJRT_AsyncHostToDeviceTransferManager_RetrieveBuffer_Args* args);
typedef PJRT_Error* PJRT_AsyncHostToDeviceTransferManager_Device(PJRT_AsyncHostToDeviceTransferManager_Device_Args* args);
typedef PJRT_Error* PJRT_AsyncHostToDeviceTransferManager_BufferCount(PJRT_AsyncHostToDeviceTransferManager_BufferCount_Args* args);
typedef PJRT_Error* PJRT_AsyncHostToDeviceTransferManager_BufferSize(PJRT_AsyncHostToDeviceTransferManager_BufferSize_Args* args);
typedef PJRT_Error* PJRT_AsyncHostToDeviceTransferManager_SetBufferError(PJRT_AsyncHostToDeviceTransferManager_SetBufferError_Args* args);
typedef PJRT_Error* PJRT_AsyncHostToDeviceTransferManager_AddMetadata(PJRT_AsyncHostToDeviceTransferManager_AddMetadata_Args* args);
typedef PJRT_Error* PJRT_Client_DmaMap(PJRT_Client_DmaMap_Args* args);
typedef PJRT_Error* PJRT_Client_DmaUnmap(PJRT_Client_DmaUnmap_Args* args);
typedef PJRT_Error* PJRT_Client_CreateUninitializedBuffer(PJRT_Client_CreateUninitializedBuffer_Args* args);
typedef PJRT_Error* PJRT_Client_UpdateGlobalProcessInfo(PJRT_Client_UpdateGlobalProcessInfo_Args* args);
typedef PJRT_Error* PJRT_TopologyDescription_Deserialize(PJRT_TopologyDescription_Deserialize_Args* args);
typedef PJRT_Error* PJRT_Client_CreateAliasBuffer(PJRT_Client_CreateAliasBuffer_Args* args);
typedef PJRT_Error* PJRT_Client_FulfillAliasBuffer(PJRT_Client_FulfillAliasBuffer_Args* args);
typedef PJRT_Error* PJRT_LoadedExecutable_GetDeviceAssignment(PJRT_LoadedExecutable_GetDeviceAssignment_Args* args);

/* ---- The function table a plugin's GetPjrtApi returns. Slot i is at
   byte offset 40 + 8*i. A newer plugin appends slots: a caller reads a slot
   only if it ends within the plugin's struct_size. ---- */

typedef struct PJRT_Api PJRT_Api;
struct PJRT_Api {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_Api_Version pjrt_api_version;
  PJRT_Error_Destroy* PJRT_Error_Destroy; /* 0, +40 */
  PJRT_Error_Message* PJRT_Error_Message; /* 1, +48 */
  PJRT_Error_GetCode* PJRT_Error_GetCode; /* 2, +56 */
  PJRT_Plugin_Initialize* PJRT_Plugin_Initialize; /* 3, +64 */
  PJRT_Plugin_Attributes* PJRT_Plugin_Attributes; /* 4, +72 */
  PJRT_Event_Destroy* PJRT_Event_Destroy; /* 5, +80 */
  PJRT_Event_IsReady* PJRT_Event_IsReady; /* 6, +88 */
  PJRT_Event_Error* PJRT_Event_Error; /* 7, +96 */
  PJRT_Event_Await* PJRT_Event_Await; /* 8, +104 */
  PJRT_Event_OnReady* PJRT_Event_OnReady; /* 9, +112 */
  PJRT_Client_Create* PJRT_Client_Create; /* 10, +120 */
  PJRT_Client_Destroy* PJRT_Client_Destroy; /* 11, +128 */
  PJRT_Client_PlatformName* PJRT_Client_PlatformName; /* 12, +136 */
  PJRT_Client_ProcessIndex* PJRT_Client_ProcessIndex; /* 13, +144 */
  PJRT_Client_PlatformVersion* PJRT_Client_PlatformVersion; /* 14, +152 */
  PJRT_Client_Devices* PJRT_Client_Devices; /* 15, +160 */
  PJRT_Client_AddressableDevices* PJRT_Client_AddressableDevices; /* 16, +168 */
  PJRT_Client_LookupDevice* PJRT_Client_LookupDevice; /* 17, +176 */
  PJRT_Client_LookupAddressableDevice* PJRT_Client_LookupAddressableDevice; /* 18, +184 */
  PJRT_Client_AddressableMemories* PJRT_Client_AddressableMemories; /* 19, +192 */
  PJRT_Client_Compile* PJRT_Client_Compile; /* 20, +200 */
  PJRT_Client_DefaultDeviceAssignment* PJRT_Client_DefaultDeviceAssignment; /* 21, +208 */
  PJRT_Client_BufferFromHostBuffer* PJRT_Client_BufferFromHostBuffer; /* 22, +216 */
  PJRT_DeviceDescription_Id* PJRT_DeviceDescription_Id; /* 23, +224 */
  PJRT_DeviceDescription_ProcessIndex* PJRT_DeviceDescription_ProcessIndex; /* 24, +232 */
  PJRT_DeviceDescription_Attributes* PJRT_DeviceDescription_Attributes; /* 25, +240 */
  PJRT_DeviceDescription_Kind* PJRT_DeviceDescription_Kind; /* 26, +248 */
  PJRT_DeviceDescription_DebugString* PJRT_DeviceDescription_DebugString; /* 27, +256 */
  PJRT_DeviceDescription_ToString* PJRT_DeviceDescription_ToString; /* 28, +264 */
  PJRT_Device_GetDescription* PJRT_Device_GetDescription; /* 29, +272 */
  PJRT_Device_IsAddressable* PJRT_Device_IsAddressable; /* 30, +280 */
  PJRT_Device_LocalHardwareId* PJRT_Device_LocalHardwareId; /* 31, +288 */
  PJRT_Device_AddressableMemories* PJRT_Device_AddressableMemories; /* 32, +296 */
  PJRT_Device_DefaultMemory* PJRT_Device_DefaultMemory; /* 33, +304 */
  PJRT_Device_MemoryStats* PJRT_Device_MemoryStats; /* 34, +312 */
  PJRT_Memory_Id* PJRT_Memory_Id; /* 35, +320 */
  PJRT_Memory_Kind* PJRT_Memory_Kind; /* 36, +328 */
  PJRT_Memory_DebugString* PJRT_Memory_DebugString; /* 37, +336 */
  PJRT_Memory_ToString* PJRT_Memory_ToString; /* 38, +344 */
  PJRT_Memory_AddressableByDevices* PJRT_Memory_AddressableByDevices; /* 39, +352 */
  PJRT_Executable_Destroy* PJRT_Executable_Destroy; /* 40, +360 */
  PJRT_Executable_Name* PJRT_Executable_Name; /* 41, +368 */
  PJRT_Executable_NumReplicas* PJRT_Executable_NumReplicas; /* 42, +376 */
  PJRT_Executable_NumPartitions* PJRT_Executable_NumPartitions; /* 43, +384 */
  PJRT_Executable_NumOutputs* PJRT_Executable_NumOutputs; /* 44, +392 */
  PJRT_Executable_SizeOfGeneratedCodeInBytes* PJRT_Executable_SizeOfGeneratedCodeInBytes; /* 45, +400 */
  PJRT_Executable_GetCostAnalysis* PJRT_Executable_GetCostAnalysis; /* 46, +408 */
  PJRT_Executable_OutputMemoryKinds* PJRT_Executable_OutputMemoryKinds; /* 47, +416 */
  PJRT_Executable_OptimizedProgram* PJRT_Executable_OptimizedProgram; /* 48, +424 */
  PJRT_Executable_Serialize* PJRT_Executable_Serialize; /* 49, +432 */
  PJRT_LoadedExecutable_Destroy* PJRT_LoadedExecutable_Destroy; /* 50, +440 */
  PJRT_LoadedExecutable_GetExecutable* PJRT_LoadedExecutable_GetExecutable; /* 51, +448 */
  PJRT_LoadedExecutable_AddressableDevices* PJRT_LoadedExecutable_AddressableDevices; /* 52, +456 */
  PJRT_LoadedExecutable_Delete* PJRT_LoadedExecutable_Delete; /* 53, +464 */
  PJRT_LoadedExecutable_IsDeleted* PJRT_LoadedExecutable_IsDeleted; /* 54, +472 */
  PJRT_LoadedExecutable_Execute* PJRT_LoadedExecutable_Execute; /* 55, +480 */
  PJRT_Executable_DeserializeAndLoad* PJRT_Executable_DeserializeAndLoad; /* 56, +488 */
  PJRT_LoadedExecutable_Fingerprint* PJRT_LoadedExecutable_Fingerprint; /* 57, +496 */
  PJRT_Buffer_Destroy* PJRT_Buffer_Destroy; /* 58, +504 */
  PJRT_Buffer_ElementType* PJRT_Buffer_ElementType; /* 59, +512 */
  PJRT_Buffer_Dimensions* PJRT_Buffer_Dimensions; /* 60, +520 */
  PJRT_Buffer_UnpaddedDimensions* PJRT_Buffer_UnpaddedDimensions; /* 61, +528 */
  PJRT_Buffer_DynamicDimensionIndices* PJRT_Buffer_DynamicDimensionIndices; /* 62, +536 */
  PJRT_Buffer_GetMemoryLayout* PJRT_Buffer_GetMemoryLayout; /* 63, +544 */
  PJRT_Buffer_OnDeviceSizeInBytes* PJRT_Buffer_OnDeviceSizeInBytes; /* 64, +552 */
  PJRT_Buffer_Device* PJRT_Buffer_Device; /* 65, +560 */
  PJRT_Buffer_Memory* PJRT_Buffer_Memory; /* 66, +568 */
  PJRT_Buffer_Delete* PJRT_Buffer_Delete; /* 67, +576 */
  PJRT_Buffer_IsDeleted* PJRT_Buffer_IsDeleted; /* 68, +584 */
  PJRT_Buffer_CopyToDevice* PJRT_Buffer_CopyToDevice; /* 69, +592 */
  PJRT_Buffer_ToHostBuffer* PJRT_Buffer_ToHostBuffer; /* 70, +600 */
  PJRT_Buffer_IsOnCpu* PJRT_Buffer_IsOnCpu; /* 71, +608 */
  PJRT_Buffer_ReadyEvent* PJRT_Buffer_ReadyEvent; /* 72, +616 */
  PJRT_Buffer_UnsafePointer* PJRT_Buffer_UnsafePointer; /* 73, +624 */
  PJRT_Buffer_IncreaseExternalReferenceCount* PJRT_Buffer_IncreaseExternalReferenceCount; /* 74, +632 */
  PJRT_Buffer_DecreaseExternalReferenceCount* PJRT_Buffer_DecreaseExternalReferenceCount; /* 75, +640 */
  PJRT_Buffer_OpaqueDeviceMemoryDataPointer* PJRT_Buffer_OpaqueDeviceMemoryDataPointer; /* 76, +648 */
  PJRT_CopyToDeviceStream_Destroy* PJRT_CopyToDeviceStream_Destroy; /* 77, +656 */
  PJRT_CopyToDeviceStream_AddChunk* PJRT_CopyToDeviceStream_AddChunk; /* 78, +664 */
  PJRT_CopyToDeviceStream_TotalBytes* PJRT_CopyToDeviceStream_TotalBytes; /* 79, +672 */
  PJRT_CopyToDeviceStream_GranuleSize* PJRT_CopyToDeviceStream_GranuleSize; /* 80, +680 */
  PJRT_CopyToDeviceStream_CurrentBytes* PJRT_CopyToDeviceStream_CurrentBytes; /* 81, +688 */
  PJRT_TopologyDescription_Create* PJRT_TopologyDescription_Create; /* 82, +696 */
  PJRT_TopologyDescription_Destroy* PJRT_TopologyDescription_Destroy; /* 83, +704 */
  PJRT_TopologyDescription_PlatformName* PJRT_TopologyDescription_PlatformName; /* 84, +712 */
  PJRT_TopologyDescription_PlatformVersion* PJRT_TopologyDescription_PlatformVersion; /* 85, +720 */
  PJRT_TopologyDescription_GetDeviceDescriptions* PJRT_TopologyDescription_GetDeviceDescriptions; /* 86, +728 */
  PJRT_TopologyDescription_Serialize* PJRT_TopologyDescription_Serialize; /* 87, +736 */
  PJRT_TopologyDescription_Attributes* PJRT_TopologyDescription_Attributes; /* 88, +744 */
  PJRT_Compile* PJRT_Compile; /* 89, +752 */
  PJRT_Executable_OutputElementTypes* PJRT_Executable_OutputElementTypes; /* 90, +760 */
  PJRT_Executable_OutputDimensions* PJRT_Executable_OutputDimensions; /* 91, +768 */
  PJRT_Buffer_CopyToMemory* PJRT_Buffer_CopyToMemory; /* 92, +776 */
  PJRT_Client_CreateViewOfDeviceBuffer* PJRT_Client_CreateViewOfDeviceBuffer; /* 93, +784 */
  PJRT_Executable_Fingerprint* PJRT_Executable_Fingerprint; /* 94, +792 */
  PJRT_Client_TopologyDescription* PJRT_Client_TopologyDescription; /* 95, +800 */
  PJRT_Executable_GetCompiledMemoryStats* PJRT_Executable_GetCompiledMemoryStats; /* 96, +808 */
  PJRT_Memory_Kind_Id* PJRT_Memory_Kind_Id; /* 97, +816 */
  PJRT_ExecuteContext_Create* PJRT_ExecuteContext_Create; /* 98, +824 */
  PJRT_ExecuteContext_Destroy* PJRT_ExecuteContext_Destroy; /* 99, +832 */
  PJRT_Buffer_CopyRawToHost* PJRT_Buffer_CopyRawToHost; /* 100, +840 */
  PJRT_AsyncHostToDeviceTransferManager_Destroy* PJRT_AsyncHostToDeviceTransferManager_Destroy; /* 101, +848 */
  PJRT_AsyncHostToDeviceTransferManager_TransferData* PJRT_AsyncHostToDeviceTransferManager_TransferData; /* 102, +856 */
  PJRT_Client_CreateBuffersForAsyncHostToDevice* PJRT_Client_CreateBuffersForAsyncHostToDevice; /* 103, +864 */
  PJRT_AsyncHostToDeviceTransferManager_RetrieveBuffer* PJRT_AsyncHostToDeviceTransferManager_RetrieveBuffer; /* 104, +872 */
  PJRT_AsyncHostToDeviceTransferManager_Device* PJRT_AsyncHostToDeviceTransferManager_Device; /* 105, +880 */
  PJRT_AsyncHostToDeviceTransferManager_BufferCount* PJRT_AsyncHostToDeviceTransferManager_BufferCount; /* 106, +888 */
  PJRT_AsyncHostToDeviceTransferManager_BufferSize* PJRT_AsyncHostToDeviceTransferManager_BufferSize; /* 107, +896 */
  PJRT_AsyncHostToDeviceTransferManager_SetBufferError* PJRT_AsyncHostToDeviceTransferManager_SetBufferError; /* 108, +904 */
  PJRT_AsyncHostToDeviceTransferManager_AddMetadata* PJRT_AsyncHostToDeviceTransferManager_AddMetadata; /* 109, +912 */
  PJRT_Client_DmaMap* PJRT_Client_DmaMap; /* 110, +920 */
  PJRT_Client_DmaUnmap* PJRT_Client_DmaUnmap; /* 111, +928 */
  PJRT_Client_CreateUninitializedBuffer* PJRT_Client_CreateUninitializedBuffer; /* 112, +936 */
  PJRT_Client_UpdateGlobalProcessInfo* PJRT_Client_UpdateGlobalProcessInfo; /* 113, +944 */
  PJRT_TopologyDescription_Deserialize* PJRT_TopologyDescription_Deserialize; /* 114, +952 */
  PJRT_Client_CreateAliasBuffer* PJRT_Client_CreateAliasBuffer; /* 115, +960 */
  PJRT_Client_FulfillAliasBuffer* PJRT_Client_FulfillAliasBuffer; /* 116, +968 */
  PJRT_LoadedExecutable_GetDeviceAssignment* PJRT_LoadedExecutable_GetDeviceAssignment; /* 117, +976 */
};
PJRT_STRUCT_END(PJRT_Api, PJRT_LoadedExecutable_GetDeviceAssignment)

/* The one symbol a plugin exports. It must be cheap and free of side
   effects: loaders call it just to probe a file. */
const PJRT_Api* GetPjrtApi(void);

#ifdef __cplusplus
}
#endif

#endif /* STELA_PJRT_CAPI_STELA_PJRT_H_ */
