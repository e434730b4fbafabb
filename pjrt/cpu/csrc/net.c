/*
 * net.c: the fallback of the Gloo shim (stela_gloo.h) for a plugin built
 * without Gloo: a client of several processes cannot be made, and says
 * why.
 */
#include <stdio.h>

#include "stela_gloo.h"

#ifndef STELA_HAVE_GLOO
int stela_gloo_built(void) { return 0; }

stela_gloo* stela_gloo_connect(int rank, int size, const char* host, const char* iface, const char* prefix,
                               int64_t timeout_ms, stela_kv_get_fn get, stela_kv_put_fn put, void* kv,
                               char err[256]) {
  (void)rank, (void)host, (void)iface, (void)prefix, (void)timeout_ms, (void)get, (void)put, (void)kv;
  snprintf(err, 256,
           "collectives across %d processes need Gloo, and this Stela CPU plugin was built without it (install "
           "Debian's libgloo-dev and g++; the plugin is rebuilt on next use)",
           size);
  return NULL;
}

int32_t stela_gloo_sendrecv(void* g, const void* xs, int64_t n, char err[256]) {
  (void)g, (void)xs, (void)n;
  snprintf(err, 256, "this Stela CPU plugin was built without Gloo");
  return 1;
}

void stela_gloo_free(stela_gloo* g) { (void)g; }
#endif
