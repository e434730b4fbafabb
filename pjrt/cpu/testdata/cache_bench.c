/* cache_bench.c: the cost of the compile cache's checked load (open with
   O_NOFOLLOW, fstat, read, manifest and SHA-256 check, sealed memfd,
   dlopen through /proc/self/fd) against the unchecked load it replaced
   (dlopen of the path), in the same run, alternating rounds. Linked with
   the plugin's cache.c, util.c and error.c (cache_bench_test.go).
   Usage: cache_bench <root> <key> <rounds> <loads per round>. Prints
   "checked <ns> unchecked <ns> bytes <n>": medians per load. */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "internal.h"

static double now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static int cmp(const void* a, const void* b) {
  double x = *(const double*)a, y = *(const double*)b;
  return x < y ? -1 : x > y;
}

int main(int argc, char** argv) {
  if (argc != 5) return 2;
  int rounds = atoi(argv[3]), per = atoi(argv[4]);
  stela_cache c;
  PJRT_Error* err = stela_cache_open(argv[1], &c);
  if (err != NULL) {
    fprintf(stderr, "%s\n", err->msg);
    return 1;
  }
  char* path = stela_asprintf("%s/%s.so", c.objects, argv[2]);
  double* checked = calloc((size_t)rounds, sizeof(double));
  double* unchecked = calloc((size_t)rounds, sizeof(double));
  size_t bytes = 0;
  for (int r = 0; r < rounds; r++) {
    double t0 = now_ns();
    for (int i = 0; i < per; i++) {
      unsigned char* elf;
      size_t n;
      char* sig;
      int fd;
      if (!stela_cache_get(&c, argv[2], &elf, &n, &sig, &fd)) {
        fprintf(stderr, "no entry %s\n", argv[2]);
        return 1;
      }
      char* why;
      int keep;
      void* h = stela_dlopen_verified(elf, n, fd, &keep, &why);
      if (h == NULL || dlsym(h, "stela_entry") == NULL) {
        fprintf(stderr, "checked load: %s\n", why ? why : "no stela_entry");
        return 1;
      }
      dlclose(h);
      close(keep);
      bytes = n;
      free(elf);
      free(sig);
      close(fd);
    }
    double t1 = now_ns();
    for (int i = 0; i < per; i++) {
      void* h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
      if (h == NULL || dlsym(h, "stela_entry") == NULL) {
        fprintf(stderr, "unchecked load: %s\n", dlerror());
        return 1;
      }
      dlclose(h);
    }
    double t2 = now_ns();
    checked[r] = (t1 - t0) / per;
    unchecked[r] = (t2 - t1) / per;
  }
  qsort(checked, (size_t)rounds, sizeof(double), cmp);
  qsort(unchecked, (size_t)rounds, sizeof(double), cmp);
  printf("checked %.0f unchecked %.0f bytes %zu\n", checked[rounds / 2], unchecked[rounds / 2], bytes);
  return 0;
}
