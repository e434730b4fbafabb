package pjrt

/*
#include "pjrt_cgo.h"
*/
import "C"

import (
	"errors"
	"fmt"
	"runtime/cgo"
	"time"
	"unsafe"
)

// KeyValueStore is the store behind a plugin's distributed runtime:
// PJRT_Client_Create's key-value callbacks, through which the processes of
// a multi-process job exchange what their clients need (XLA's CUDA
// plugin: each node's local topology and NCCL ids; libtpu: its own
// coordination data). Every process's client must see one store.
type KeyValueStore interface {
	// Get waits up to timeout for key to have a value. A key without one
	// at the deadline is an error wrapping ErrKeyTimeout.
	Get(key string, timeout time.Duration) ([]byte, error)
	// TryGet returns the value of key, or ok false at once when it has none.
	TryGet(key string) (value []byte, ok bool, err error)
	// Put stores value under key.
	Put(key string, value []byte) error
}

// ErrKeyTimeout is wrapped by a KeyValueStore's Get when the key did not
// appear in time; the plugin sees DEADLINE_EXCEEDED.
var ErrKeyTimeout = errors.New("key-value store: timed out")

// DistributedOptions are a client's place in a multi-process job.
type DistributedOptions struct {
	// Store backs the plugin's key-value callbacks.
	Store KeyValueStore
	// NodeID and NumNodes are passed as the create options node_id and
	// num_nodes (int64), the names XLA's CUDA plugin takes, unless
	// NoNodeOptions is set (plugins that reject unknown options and do not
	// take these).
	NodeID, NumNodes int
	NoNodeOptions    bool
}

// NewDistributedClient is NewClient for one process of a multi-process
// job: the client gets d.Store as its key-value callbacks (get, try-get
// and put) and, unless d.NoNodeOptions, node_id and num_nodes among its
// options. The store must outlive the client.
func (p *Plugin) NewDistributedClient(d DistributedOptions, options ...NamedValue) (*Client, error) {
	if d.Store == nil {
		return nil, errorf("NewDistributedClient", CodeInvalidArgument, "no key-value store")
	}
	if d.NumNodes < 1 || d.NodeID < 0 || d.NodeID >= d.NumNodes {
		return nil, errorf("NewDistributedClient", CodeInvalidArgument, "node %d of %d", d.NodeID, d.NumNodes)
	}
	if !d.NoNodeOptions {
		options = append(options[:len(options):len(options)], NamedValue{"node_id", int64(d.NodeID)}, NamedValue{"num_nodes", int64(d.NumNodes)})
	}
	copts, err := namedValuesToC("NewClient", options)
	if err != nil {
		return nil, err
	}
	defer copts.free()
	// The handle stays valid for the process's life: a plugin may call
	// the callbacks from its own threads after Client_Create returns (XLA
	// keeps the store for later collectives' set-up), and nothing tells
	// us when it has stopped.
	h := cgo.NewHandle(d.Store)
	user := (*C.uintptr_t)(C.malloc(C.size_t(unsafe.Sizeof(C.uintptr_t(0)))))
	*user = C.uintptr_t(h)
	var args C.PJRT_Client_Create_Args
	args.create_options = copts.array
	args.num_options = C.size_t(copts.n)
	C.stela_kv_set(&args, unsafe.Pointer(user))
	return p.createClient(&args)
}

func kvStore(user unsafe.Pointer) KeyValueStore {
	return cgo.Handle(C.stela_kv_handle(user)).Value().(KeyValueStore)
}

// kvError makes the plugin's error for a failed callback.
func kvError(f *C.PJRT_CallbackError, err error) *C.PJRT_Error {
	code := C.PJRT_Error_Code(CodeUnavailable)
	if errors.Is(err, ErrKeyTimeout) {
		code = C.PJRT_Error_Code(CodeDeadlineExceeded)
	}
	msg := C.CString(fmt.Sprintf("stela key-value store: %v", err))
	defer C.free(unsafe.Pointer(msg))
	return C.stela_kv_error(f, code, msg, C.strlen(msg))
}

//export stelaKVGet
func stelaKVGet(a *C.PJRT_KeyValueGetCallback_Args) *C.PJRT_Error {
	key := C.GoStringN(a.key, C.int(a.key_size))
	v, err := kvStore(a.user_arg).Get(key, time.Duration(a.timeout_in_ms)*time.Millisecond)
	if err != nil {
		return kvError(a.callback_error, err)
	}
	C.stela_kv_get_value(a, (*C.char)(C.CBytes(v)), C.size_t(len(v)))
	return nil
}

//export stelaKVTryGet
func stelaKVTryGet(a *C.PJRT_KeyValueTryGetCallback_Args) *C.PJRT_Error {
	key := C.GoStringN(a.key, C.int(a.key_size))
	v, ok, err := kvStore(a.user_arg).TryGet(key)
	if err == nil && !ok {
		// XLA's TryGet reports a missing key as NOT_FOUND.
		msg := C.CString("stela key-value store: no key " + key)
		defer C.free(unsafe.Pointer(msg))
		return C.stela_kv_error(a.callback_error, C.PJRT_Error_Code(CodeNotFound), msg, C.strlen(msg))
	}
	if err != nil {
		return kvError(a.callback_error, err)
	}
	C.stela_kv_try_get_value(a, (*C.char)(C.CBytes(v)), C.size_t(len(v)))
	return nil
}

//export stelaKVPut
func stelaKVPut(a *C.PJRT_KeyValuePutCallback_Args) *C.PJRT_Error {
	key := C.GoStringN(a.key, C.int(a.key_size))
	v := C.GoBytes(unsafe.Pointer(a.value), C.int(a.value_size))
	if err := kvStore(a.user_arg).Put(key, v); err != nil {
		return kvError(a.callback_error, err)
	}
	return nil
}
