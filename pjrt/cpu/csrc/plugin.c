/*
 * plugin.c: GetPjrtApi, the PJRT_Api table, plugin initialization and
 * attributes, and the UNIMPLEMENTED stubs.
 *
 * GetPjrtApi returns a static table and does nothing else: gopjrt dlopens
 * every candidate plugin, calls GetPjrtApi and dlcloses it again, so it
 * must start no thread and spawn nothing. Every slot up to the declared
 * minor version (0.81) is filled; a function the plugin does not provide
 * returns an UNIMPLEMENTED error that names it.
 */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* ---- Plugin ---- */

static PJRT_Error* stela_Plugin_Initialize(PJRT_Plugin_Initialize_Args* args) {
  /* Idempotent: gopjrt calls it once per load, and a process may load the
     plugin through two clients (Stela's and gopjrt's). There is no global
     state to set up. */
  STELA_CHECK_ARGS(PJRT_Plugin_Initialize_Args, args, extension_start);
  return NULL;
}

/* The StableHLO (VHLO) versions the compile worker reads
   (stablehlo/bytecode: CurrentVersion, MinVersion). XLA's PJRT C-API
   client, and so JAX, serializes programs as a portable artifact at the
   smaller of its own version and stablehlo_current_version. */
static const int64_t stablehlo_current[3] = {1, 17, 0};
static const int64_t stablehlo_minimum[3] = {0, 9, 0};

static const PJRT_NamedValue attributes[] = {
    {.struct_size = PJRT_NamedValue_STRUCT_SIZE,
     .name = "stela_cpu_version",
     .name_size = sizeof("stela_cpu_version") - 1,
     .type = PJRT_NamedValue_kString,
     .string_value = STELA_PLUGIN_VERSION,
     .value_size = sizeof(STELA_PLUGIN_VERSION) - 1},
    {.struct_size = PJRT_NamedValue_STRUCT_SIZE,
     .name = "stela_program_format",
     .name_size = sizeof("stela_program_format") - 1,
     .type = PJRT_NamedValue_kString,
     .string_value = "mlir (StableHLO text or bytecode)",
     .value_size = sizeof("mlir (StableHLO text or bytecode)") - 1},
    {.struct_size = PJRT_NamedValue_STRUCT_SIZE,
     .name = "stablehlo_current_version",
     .name_size = sizeof("stablehlo_current_version") - 1,
     .type = PJRT_NamedValue_kInt64List,
     .int64_array_value = stablehlo_current,
     .value_size = 3},
    {.struct_size = PJRT_NamedValue_STRUCT_SIZE,
     .name = "stablehlo_minimum_version",
     .name_size = sizeof("stablehlo_minimum_version") - 1,
     .type = PJRT_NamedValue_kInt64List,
     .int64_array_value = stablehlo_minimum,
     .value_size = 3},
    {.struct_size = PJRT_NamedValue_STRUCT_SIZE,
     .name = "stela_max_devices",
     .name_size = sizeof("stela_max_devices") - 1,
     .type = PJRT_NamedValue_kInt64,
     .int64_value = STELA_MAX_DEVICES,
     .value_size = 1},
};

static PJRT_Error* stela_Plugin_Attributes(PJRT_Plugin_Attributes_Args* args) {
  STELA_CHECK_ARGS(PJRT_Plugin_Attributes_Args, args, num_attributes);
  args->attributes = attributes;
  args->num_attributes = sizeof(attributes) / sizeof(attributes[0]);
  return NULL;
}

/* ---- Stubs ---- */

#define STUB(name)                                                                     \
  static PJRT_Error* stub_##name(name##_Args* args) {                                  \
    (void)args;                                                                        \
    return stela_error(PJRT_Error_Code_UNIMPLEMENTED,                                  \
                       #name " is not implemented by the Stela CPU plugin");            \
  }

STUB(PJRT_Device_MemoryStats)
STUB(PJRT_Executable_GetCostAnalysis)
STUB(PJRT_Executable_Serialize)
STUB(PJRT_Executable_DeserializeAndLoad)
STUB(PJRT_LoadedExecutable_Fingerprint)
STUB(PJRT_CopyToDeviceStream_Destroy)
STUB(PJRT_CopyToDeviceStream_AddChunk)
STUB(PJRT_CopyToDeviceStream_TotalBytes)
STUB(PJRT_CopyToDeviceStream_GranuleSize)
STUB(PJRT_CopyToDeviceStream_CurrentBytes)
STUB(PJRT_TopologyDescription_Create)
STUB(PJRT_TopologyDescription_Destroy)
STUB(PJRT_TopologyDescription_PlatformName)
STUB(PJRT_TopologyDescription_PlatformVersion)
STUB(PJRT_TopologyDescription_GetDeviceDescriptions)
STUB(PJRT_TopologyDescription_Serialize)
STUB(PJRT_TopologyDescription_Attributes)
STUB(PJRT_Compile)
STUB(PJRT_Client_TopologyDescription)
STUB(PJRT_Buffer_CopyRawToHost)
STUB(PJRT_AsyncHostToDeviceTransferManager_Destroy)
STUB(PJRT_AsyncHostToDeviceTransferManager_TransferData)
STUB(PJRT_Client_CreateBuffersForAsyncHostToDevice)
STUB(PJRT_AsyncHostToDeviceTransferManager_RetrieveBuffer)
STUB(PJRT_AsyncHostToDeviceTransferManager_Device)
STUB(PJRT_AsyncHostToDeviceTransferManager_BufferCount)
STUB(PJRT_AsyncHostToDeviceTransferManager_BufferSize)
STUB(PJRT_AsyncHostToDeviceTransferManager_SetBufferError)
STUB(PJRT_AsyncHostToDeviceTransferManager_AddMetadata)
STUB(PJRT_Client_DmaMap)
STUB(PJRT_Client_DmaUnmap)
STUB(PJRT_Client_CreateUninitializedBuffer)
STUB(PJRT_Client_UpdateGlobalProcessInfo)
STUB(PJRT_TopologyDescription_Deserialize)
STUB(PJRT_Client_CreateAliasBuffer)
STUB(PJRT_Client_FulfillAliasBuffer)

/* ---- The table ---- */

static const PJRT_Api api = {
    .struct_size = PJRT_Api_STRUCT_SIZE,
    .extension_start = NULL,
    .pjrt_api_version =
        {
            .struct_size = PJRT_Api_Version_STRUCT_SIZE,
            .extension_start = NULL,
            .major_version = PJRT_API_MAJOR,
            .minor_version = PJRT_API_MINOR,
        },
    .PJRT_Error_Destroy = stela_Error_Destroy,
    .PJRT_Error_Message = stela_Error_Message,
    .PJRT_Error_GetCode = stela_Error_GetCode,
    .PJRT_Plugin_Initialize = stela_Plugin_Initialize,
    .PJRT_Plugin_Attributes = stela_Plugin_Attributes,
    .PJRT_Event_Destroy = stela_Event_Destroy,
    .PJRT_Event_IsReady = stela_Event_IsReady,
    .PJRT_Event_Error = stela_Event_Error,
    .PJRT_Event_Await = stela_Event_Await,
    .PJRT_Event_OnReady = stela_Event_OnReady,
    .PJRT_Client_Create = stela_Client_Create,
    .PJRT_Client_Destroy = stela_Client_Destroy,
    .PJRT_Client_PlatformName = stela_Client_PlatformName,
    .PJRT_Client_ProcessIndex = stela_Client_ProcessIndex,
    .PJRT_Client_PlatformVersion = stela_Client_PlatformVersion,
    .PJRT_Client_Devices = stela_Client_Devices,
    .PJRT_Client_AddressableDevices = stela_Client_AddressableDevices,
    .PJRT_Client_LookupDevice = stela_Client_LookupDevice,
    .PJRT_Client_LookupAddressableDevice = stela_Client_LookupAddressableDevice,
    .PJRT_Client_AddressableMemories = stela_Client_AddressableMemories,
    .PJRT_Client_Compile = stela_Client_Compile,
    .PJRT_Client_DefaultDeviceAssignment = stela_Client_DefaultDeviceAssignment,
    .PJRT_Client_BufferFromHostBuffer = stela_Client_BufferFromHostBuffer,
    .PJRT_DeviceDescription_Id = stela_DeviceDescription_Id,
    .PJRT_DeviceDescription_ProcessIndex = stela_DeviceDescription_ProcessIndex,
    .PJRT_DeviceDescription_Attributes = stela_DeviceDescription_Attributes,
    .PJRT_DeviceDescription_Kind = stela_DeviceDescription_Kind,
    .PJRT_DeviceDescription_DebugString = stela_DeviceDescription_DebugString,
    .PJRT_DeviceDescription_ToString = stela_DeviceDescription_ToString,
    .PJRT_Device_GetDescription = stela_Device_GetDescription,
    .PJRT_Device_IsAddressable = stela_Device_IsAddressable,
    .PJRT_Device_LocalHardwareId = stela_Device_LocalHardwareId,
    .PJRT_Device_AddressableMemories = stela_Device_AddressableMemories,
    .PJRT_Device_DefaultMemory = stela_Device_DefaultMemory,
    .PJRT_Device_MemoryStats = stub_PJRT_Device_MemoryStats,
    .PJRT_Memory_Id = stela_Memory_Id,
    .PJRT_Memory_Kind = stela_Memory_Kind,
    .PJRT_Memory_DebugString = stela_Memory_DebugString,
    .PJRT_Memory_ToString = stela_Memory_ToString,
    .PJRT_Memory_AddressableByDevices = stela_Memory_AddressableByDevices,
    .PJRT_Executable_Destroy = stela_Executable_Destroy,
    .PJRT_Executable_Name = stela_Executable_Name,
    .PJRT_Executable_NumReplicas = stela_Executable_NumReplicas,
    .PJRT_Executable_NumPartitions = stela_Executable_NumPartitions,
    .PJRT_Executable_NumOutputs = stela_Executable_NumOutputs,
    .PJRT_Executable_SizeOfGeneratedCodeInBytes = stela_Executable_SizeOfGeneratedCodeInBytes,
    .PJRT_Executable_GetCostAnalysis = stub_PJRT_Executable_GetCostAnalysis,
    .PJRT_Executable_OutputMemoryKinds = stela_Executable_OutputMemoryKinds,
    .PJRT_Executable_OptimizedProgram = stela_Executable_OptimizedProgram,
    .PJRT_Executable_Serialize = stub_PJRT_Executable_Serialize,
    .PJRT_LoadedExecutable_Destroy = stela_LoadedExecutable_Destroy,
    .PJRT_LoadedExecutable_GetExecutable = stela_LoadedExecutable_GetExecutable,
    .PJRT_LoadedExecutable_AddressableDevices = stela_LoadedExecutable_AddressableDevices,
    .PJRT_LoadedExecutable_Delete = stela_LoadedExecutable_Delete,
    .PJRT_LoadedExecutable_IsDeleted = stela_LoadedExecutable_IsDeleted,
    .PJRT_LoadedExecutable_Execute = stela_LoadedExecutable_Execute,
    .PJRT_Executable_DeserializeAndLoad = stub_PJRT_Executable_DeserializeAndLoad,
    .PJRT_LoadedExecutable_Fingerprint = stub_PJRT_LoadedExecutable_Fingerprint,
    .PJRT_Buffer_Destroy = stela_Buffer_Destroy,
    .PJRT_Buffer_ElementType = stela_Buffer_ElementType,
    .PJRT_Buffer_Dimensions = stela_Buffer_Dimensions,
    .PJRT_Buffer_UnpaddedDimensions = stela_Buffer_UnpaddedDimensions,
    .PJRT_Buffer_DynamicDimensionIndices = stela_Buffer_DynamicDimensionIndices,
    .PJRT_Buffer_GetMemoryLayout = stela_Buffer_GetMemoryLayout,
    .PJRT_Buffer_OnDeviceSizeInBytes = stela_Buffer_OnDeviceSizeInBytes,
    .PJRT_Buffer_Device = stela_Buffer_Device,
    .PJRT_Buffer_Memory = stela_Buffer_Memory,
    .PJRT_Buffer_Delete = stela_Buffer_Delete,
    .PJRT_Buffer_IsDeleted = stela_Buffer_IsDeleted,
    .PJRT_Buffer_CopyToDevice = stela_Buffer_CopyToDevice,
    .PJRT_Buffer_ToHostBuffer = stela_Buffer_ToHostBuffer,
    .PJRT_Buffer_IsOnCpu = stela_Buffer_IsOnCpu,
    .PJRT_Buffer_ReadyEvent = stela_Buffer_ReadyEvent,
    .PJRT_Buffer_UnsafePointer = stela_Buffer_UnsafePointer,
    .PJRT_Buffer_IncreaseExternalReferenceCount = stela_Buffer_IncreaseExternalReferenceCount,
    .PJRT_Buffer_DecreaseExternalReferenceCount = stela_Buffer_DecreaseExternalReferenceCount,
    .PJRT_Buffer_OpaqueDeviceMemoryDataPointer = stela_Buffer_OpaqueDeviceMemoryDataPointer,
    .PJRT_CopyToDeviceStream_Destroy = stub_PJRT_CopyToDeviceStream_Destroy,
    .PJRT_CopyToDeviceStream_AddChunk = stub_PJRT_CopyToDeviceStream_AddChunk,
    .PJRT_CopyToDeviceStream_TotalBytes = stub_PJRT_CopyToDeviceStream_TotalBytes,
    .PJRT_CopyToDeviceStream_GranuleSize = stub_PJRT_CopyToDeviceStream_GranuleSize,
    .PJRT_CopyToDeviceStream_CurrentBytes = stub_PJRT_CopyToDeviceStream_CurrentBytes,
    .PJRT_TopologyDescription_Create = stub_PJRT_TopologyDescription_Create,
    .PJRT_TopologyDescription_Destroy = stub_PJRT_TopologyDescription_Destroy,
    .PJRT_TopologyDescription_PlatformName = stub_PJRT_TopologyDescription_PlatformName,
    .PJRT_TopologyDescription_PlatformVersion = stub_PJRT_TopologyDescription_PlatformVersion,
    .PJRT_TopologyDescription_GetDeviceDescriptions = stub_PJRT_TopologyDescription_GetDeviceDescriptions,
    .PJRT_TopologyDescription_Serialize = stub_PJRT_TopologyDescription_Serialize,
    .PJRT_TopologyDescription_Attributes = stub_PJRT_TopologyDescription_Attributes,
    .PJRT_Compile = stub_PJRT_Compile,
    .PJRT_Executable_OutputElementTypes = stela_Executable_OutputElementTypes,
    .PJRT_Executable_OutputDimensions = stela_Executable_OutputDimensions,
    .PJRT_Buffer_CopyToMemory = stela_Buffer_CopyToMemory,
    .PJRT_Client_CreateViewOfDeviceBuffer = stela_Client_CreateViewOfDeviceBuffer,
    .PJRT_Executable_Fingerprint = stela_Executable_Fingerprint,
    .PJRT_Client_TopologyDescription = stub_PJRT_Client_TopologyDescription,
    .PJRT_Executable_GetCompiledMemoryStats = stela_Executable_GetCompiledMemoryStats,
    .PJRT_Memory_Kind_Id = stela_Memory_Kind_Id,
    .PJRT_ExecuteContext_Create = stela_ExecuteContext_Create,
    .PJRT_ExecuteContext_Destroy = stela_ExecuteContext_Destroy,
    .PJRT_Buffer_CopyRawToHost = stub_PJRT_Buffer_CopyRawToHost,
    .PJRT_AsyncHostToDeviceTransferManager_Destroy = stub_PJRT_AsyncHostToDeviceTransferManager_Destroy,
    .PJRT_AsyncHostToDeviceTransferManager_TransferData = stub_PJRT_AsyncHostToDeviceTransferManager_TransferData,
    .PJRT_Client_CreateBuffersForAsyncHostToDevice = stub_PJRT_Client_CreateBuffersForAsyncHostToDevice,
    .PJRT_AsyncHostToDeviceTransferManager_RetrieveBuffer = stub_PJRT_AsyncHostToDeviceTransferManager_RetrieveBuffer,
    .PJRT_AsyncHostToDeviceTransferManager_Device = stub_PJRT_AsyncHostToDeviceTransferManager_Device,
    .PJRT_AsyncHostToDeviceTransferManager_BufferCount = stub_PJRT_AsyncHostToDeviceTransferManager_BufferCount,
    .PJRT_AsyncHostToDeviceTransferManager_BufferSize = stub_PJRT_AsyncHostToDeviceTransferManager_BufferSize,
    .PJRT_AsyncHostToDeviceTransferManager_SetBufferError = stub_PJRT_AsyncHostToDeviceTransferManager_SetBufferError,
    .PJRT_AsyncHostToDeviceTransferManager_AddMetadata = stub_PJRT_AsyncHostToDeviceTransferManager_AddMetadata,
    .PJRT_Client_DmaMap = stub_PJRT_Client_DmaMap,
    .PJRT_Client_DmaUnmap = stub_PJRT_Client_DmaUnmap,
    .PJRT_Client_CreateUninitializedBuffer = stub_PJRT_Client_CreateUninitializedBuffer,
    .PJRT_Client_UpdateGlobalProcessInfo = stub_PJRT_Client_UpdateGlobalProcessInfo,
    .PJRT_TopologyDescription_Deserialize = stub_PJRT_TopologyDescription_Deserialize,
    .PJRT_Client_CreateAliasBuffer = stub_PJRT_Client_CreateAliasBuffer,
    .PJRT_Client_FulfillAliasBuffer = stub_PJRT_Client_FulfillAliasBuffer,
    .PJRT_LoadedExecutable_GetDeviceAssignment = stela_LoadedExecutable_GetDeviceAssignment,
};

__attribute__((visibility("default"))) const PJRT_Api* GetPjrtApi(void) { return &api; }

/* The number of buffer memory blocks the plugin has allocated and not
   freed, over all clients in the process (docs/cpu-plugin.md): a leak
   check for runtimes. Not part of PJRT; found with dlsym. */
__attribute__((visibility("default"))) int64_t stela_cpu_live_buffers(void) {
  return (int64_t)stela_live_count();
}

/* The bytes of those blocks (the arrays' sizes, not counting the
   allocator's rounding): what buffers hold now, for tests of memory use
   such as buffer donation's. Not part of PJRT; found with dlsym. */
__attribute__((visibility("default"))) int64_t stela_cpu_live_bytes(void) {
  return (int64_t)stela_live_bytes();
}

/* Cancels the executions that run, or will run, with execute context ctx
   (PJRT_ExecuteOptions.context): they stop at their next check (a while
   loop's back-edge, the start of a kernel, a chunk of a parallel loop)
   and return an error of the given code, PJRT_Error_Code_DEADLINE_EXCEEDED
   or PJRT_Error_Code_CANCELLED (any other nonzero code is taken as
   CANCELLED). Safe from any thread, at any time while ctx lives; the
   first call's code sticks. Returns 0, or -1 when ctx is NULL. Not part
   of PJRT; found with dlsym (docs/cpu-plugin.md). */
__attribute__((visibility("default"))) int32_t stela_cpu_execute_context_cancel(PJRT_ExecuteContext* ctx, int32_t code) {
  if (ctx == NULL) return -1;
  if (code != PJRT_Error_Code_DEADLINE_EXCEEDED) code = PJRT_Error_Code_CANCELLED;
  int32_t zero = 0;
  atomic_compare_exchange_strong(&ctx->cancel, &zero, code);
  return 0;
}
