/*
 * stela_gloo.h: the plugin's collectives across processes, through Gloo
 * (gloo.cc, a C++ shim; docs/distributed.md). A plugin built without
 * Gloo (no libgloo-dev or no C++ compiler when it was built) has the
 * fallback of net.c, whose connect fails saying so.
 *
 * Plain C, so that both the C plugin and the C++ shim include it.
 */
#ifndef STELA_GLOO_H_
#define STELA_GLOO_H_

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The rendezvous store (the PJRT client's key-value callbacks): get waits
   up to timeout_ms for key and returns a malloc'ed copy of its value. Both
   return 0, or 1 with a message in err. */
typedef int (*stela_kv_get_fn)(void* ctx, const char* key, int timeout_ms, char** value, size_t* size, char err[256]);
typedef int (*stela_kv_put_fn)(void* ctx, const char* key, const char* value, size_t size, char err[256]);

typedef struct stela_gloo stela_gloo;

/* Whether this build has Gloo. */
int stela_gloo_built(void);

/* Connects process rank of size to all the others over TCP (host: the
   address to listen on and publish, or iface: a network interface), the
   addresses exchanged through the store under prefix; timeout_ms bounds
   the connection and every transfer. NULL with a message on failure. */
stela_gloo* stela_gloo_connect(int rank, int size, const char* host, const char* iface, const char* prefix,
                               int64_t timeout_ms, stela_kv_get_fn get, stela_kv_put_fn put, void* kv,
                               char err[256]);

/* stela_net.sendrecv (stela_rt.h): xs is an array of n stela_xfer. 2
   (an error too) means transfers may still be pending: their memory must
   not be freed. */
int32_t stela_gloo_sendrecv(void* g, const void* xs, int64_t n, char err[256]);

void stela_gloo_free(stela_gloo* g);

#ifdef __cplusplus
}
#endif

#endif /* STELA_GLOO_H_ */
