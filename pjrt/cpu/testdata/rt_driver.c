/*
 * rt_driver.c: drives the Stela CPU plugin's runtime (ABI version 3: the
 * thread pool, GEMM and collectives) and its live-buffer count through
 * the PJRT_Api table, from C. Built and run by TestRuntimeDriver (and, with
 * AddressSanitizer, TestRuntimeDriverASan).
 *
 *   rt_driver PLUGIN.so FAKE_WORKER CACHE_DIR LOOPS
 *
 * The program it compiles is C (the fake worker's "// fake: c" mode) that
 * calls rt->sgemm, rt->dgemm and rt->parallel_for (nested, too) and checks
 * the table; four threads run it at once on four devices of one client
 * whose pool has three threads. A second program all-reduces through the
 * table's coll_exchange and coll_barrier on an executable of four devices
 * (one partition each), from two threads at once, and once with a device
 * that fails first (the others' collectives must be aborted, nobody
 * hangs). Prints "PASS" and exits 0 when all is well.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stela_pjrt.h"

static const PJRT_Api* api;
static int64_t (*live_buffers)(void);
static int failures;

#define CHECK(cond, ...)                                   \
  do {                                                     \
    if (!(cond)) {                                         \
      fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__); \
      fprintf(stderr, __VA_ARGS__);                        \
      fprintf(stderr, "\n");                               \
      __atomic_add_fetch(&failures, 1, __ATOMIC_RELAXED);  \
    }                                                      \
  } while (0)

#define ARGS(T, v)          \
  T v;                      \
  memset(&v, 0, sizeof(v)); \
  v.struct_size = T##_STRUCT_SIZE

static void must(PJRT_Error* e, const char* what, int line) {
  if (e == NULL) return;
  ARGS(PJRT_Error_Message_Args, m);
  m.error = e;
  api->PJRT_Error_Message(&m);
  fprintf(stderr, "FAIL rt_driver.c:%d: %s: %.*s\n", line, what, (int)m.message_size, m.message);
  exit(1);
}
#define MUST(call) must((call), #call, __LINE__)

#define N 128   /* the GEMM size: large enough for the runtime's own kernel to go parallel */
#define LOOP 5000

/* The program: C = A·B (f32, rt->sgemm), D = A·Bᵀ in f64 (rt->dgemm on
   converted copies), I[i] = 2i via parallel_for with a nested
   parallel_for in each chunk that counts its iterations into I[LOOP]. */
static const char program[] =
    "// fake: c\n"
    "#include <stdint.h>\n"
    "#include <stdlib.h>\n"
    "#include <string.h>\n"
    "typedef struct stela_rt {\n"
    "  int64_t version, num_threads;\n"
    "  void (*parallel_for)(void*, void (*)(void*, int64_t, int64_t), int64_t, int64_t);\n"
    "  void (*sgemm)(int32_t, int32_t, int64_t, int64_t, int64_t, float, const float*, int64_t, const float*, int64_t,\n"
    "                float, float*, int64_t);\n"
    "  void (*dgemm)(int32_t, int32_t, int64_t, int64_t, int64_t, double, const double*, int64_t, const double*,\n"
    "                int64_t, double, double*, int64_t);\n"
    "} stela_rt;\n"
    "const char stela_signature[] = \"arg f32 128x128\\narg f32 128x128\\nres f32 128x128\\nres f64 128x128\\n"
    "res si64 5001\\n\";\n"
    "const int stela_rt_uses = 1; /* GEMM: a cache hit loads the BLAS library ahead */\n"
    "typedef struct ctx { int64_t* out; const stela_rt* rt; } ctx;\n"
    "static void inner(void* p, int64_t b, int64_t e) {\n"
    "  ctx* c = p; __atomic_add_fetch(&c->out[5000], e - b, __ATOMIC_RELAXED);\n"
    "}\n"
    "static void body(void* p, int64_t b, int64_t e) {\n"
    "  ctx* c = p;\n"
    "  for (int64_t i = b; i < e; i++) c->out[i] = 2 * i;\n"
    "  c->rt->parallel_for(p, inner, 10, 1);\n"
    "}\n"
    "int stela_entry(void *const *args, void *const *results, char err[256], const stela_rt* rt) {\n"
    "  if (rt == NULL || rt->version < 2) { strcpy(err, \"no runtime table\"); return 1; }\n"
    "  if (rt->num_threads != 3) { strcpy(err, \"num_threads is not 3\"); return 1; }\n"
    "  const float *a = args[0], *b = args[1];\n"
    "  rt->sgemm(0, 0, 128, 128, 128, 1.0f, a, 128, b, 128, 0.0f, results[0], 128);\n"
    "  double *da = malloc(sizeof(double) * 128 * 128 * 2), *db = da + 128 * 128;\n"
    "  if (da == NULL) { strcpy(err, \"out of memory\"); return 1; }\n"
    "  for (int i = 0; i < 128 * 128; i++) { da[i] = a[i]; db[i] = b[i]; }\n"
    "  rt->dgemm(0, 1, 128, 128, 128, 1.0, da, 128, db, 128, 0.0, results[1], 128);\n"
    "  free(da);\n"
    "  ctx c = {results[2], rt};\n"
    "  c.out[5000] = 0;\n"
    "  rt->parallel_for(&c, body, 5000, 100);\n"
    "  return 0;\n"
    "}\n";

static float A[N * N], B[N * N];
static float Cwant[N * N];
static double Dwant[N * N];

typedef struct job {
  PJRT_Client* client;
  PJRT_LoadedExecutable* exe;
  PJRT_Device* device;
  int loops;
} job;

static PJRT_Buffer* upload(PJRT_Client* c, PJRT_Device* d, const float* data) {
  int64_t dims[2] = {N, N};
  ARGS(PJRT_Client_BufferFromHostBuffer_Args, a);
  a.client = c;
  a.data = data;
  a.type = PJRT_Buffer_Type_F32;
  a.dims = dims;
  a.num_dims = 2;
  a.host_buffer_semantics = PJRT_HostBufferSemantics_kImmutableOnlyDuringCall;
  a.device = d;
  MUST(api->PJRT_Client_BufferFromHostBuffer(&a));
  ARGS(PJRT_Event_Destroy_Args, ed);
  ed.event = a.done_with_host_buffer;
  MUST(api->PJRT_Event_Destroy(&ed));
  return a.buffer;
}

static void download(PJRT_Buffer* b, void* dst, size_t n) {
  ARGS(PJRT_Buffer_ToHostBuffer_Args, a);
  a.src = b;
  a.dst = dst;
  a.dst_size = n;
  MUST(api->PJRT_Buffer_ToHostBuffer(&a));
  ARGS(PJRT_Event_Destroy_Args, ed);
  ed.event = a.event;
  MUST(api->PJRT_Event_Destroy(&ed));
}

static void destroy_buffer(PJRT_Buffer* b) {
  ARGS(PJRT_Buffer_Destroy_Args, d);
  d.buffer = b;
  MUST(api->PJRT_Buffer_Destroy(&d));
}

static void* run_job(void* p) {
  job* j = p;
  static float C[4][N * N];
  static double D[4][N * N];
  static int64_t I[4][LOOP + 1];
  int slot = -1;
  static int next;
  slot = __atomic_fetch_add(&next, 1, __ATOMIC_RELAXED) % 4;
  PJRT_Buffer* in[2] = {upload(j->client, j->device, A), upload(j->client, j->device, B)};
  for (int l = 0; l < j->loops; l++) {
    PJRT_Buffer* out[3] = {0};
    PJRT_Buffer* const* argl[1] = {in};
    PJRT_Buffer** outl[1] = {out};
    ARGS(PJRT_ExecuteOptions, o);
    ARGS(PJRT_LoadedExecutable_Execute_Args, a);
    a.executable = j->exe;
    a.options = &o;
    a.argument_lists = argl;
    a.num_devices = 1;
    a.num_args = 2;
    a.output_lists = outl;
    a.execute_device = j->device;
    MUST(api->PJRT_LoadedExecutable_Execute(&a));
    download(out[0], C[slot], sizeof(C[slot]));
    download(out[1], D[slot], sizeof(D[slot]));
    download(out[2], I[slot], sizeof(I[slot]));
    for (int i = 0; i < N * N; i++) {
      CHECK(fabsf(C[slot][i] - Cwant[i]) <= 1e-3f * (1 + fabsf(Cwant[i])), "C[%d] = %g, want %g", i, C[slot][i],
            Cwant[i]);
      CHECK(fabs(D[slot][i] - Dwant[i]) <= 1e-9 * (1 + fabs(Dwant[i])), "D[%d] = %g, want %g", i, D[slot][i], Dwant[i]);
      if (failures > 10) exit(1);
    }
    for (int i = 0; i < LOOP; i++) CHECK(I[slot][i] == 2 * i, "I[%d] = %lld", i, (long long)I[slot][i]);
    /* Each chunk ran a nested loop of 10. */
    CHECK(I[slot][LOOP] >= 10 && I[slot][LOOP] % 10 == 0 && I[slot][LOOP] <= 10 * 50, "nested count %lld",
          (long long)I[slot][LOOP]);
    for (int k = 0; k < 3; k++) destroy_buffer(out[k]);
  }
  destroy_buffer(in[0]);
  destroy_buffer(in[1]);
  return NULL;
}

/* The collective program: result = sum over the devices of their
   argument's first element, through the runtime table (version 3). The
   device whose index is the argument's second element fails first. */
static const char coll_program[] =
    "// fake: c\n"
    "/* module @coll */\n"
    "#include <stdint.h>\n"
    "#include <stdio.h>\n"
    "typedef struct stela_rt {\n"
    "  int64_t version, num_threads;\n"
    "  void *parallel_for, *sgemm, *dgemm;\n"
    "  int64_t num_devices, device_index, num_replicas, num_partitions, replica_id, partition_id;\n"
    "  void* rendezvous;\n"
    "  int32_t (*coll_exchange)(void*, int64_t, int64_t, const char*, const int64_t*, int64_t, void* const*, int64_t,\n"
    "                           void**, char*);\n"
    "  int32_t (*coll_barrier)(void*, int64_t, int64_t, const char*, const int64_t*, int64_t, char*);\n"
    "} stela_rt;\n"
    "const char stela_signature[] = \"arg si64 2\\nres si64 3\\n\";\n"
    "const int stela_rt_uses = 2;\n"
    "int stela_entry(void *const *args, void *const *results, char err[256], const stela_rt* rt) {\n"
    "  if (rt == NULL || rt->version < 3) { snprintf(err, 256, \"no runtime table of version 3\"); return 1; }\n"
    "  const int64_t* a = args[0];\n"
    "  int64_t d = rt->device_index, n = rt->num_devices;\n"
    "  if (d == a[1]) { snprintf(err, 256, \"device %lld failed first\", (long long)d); return 1; }\n"
    "  int64_t members[8];\n"
    "  for (int64_t i = 0; i < n; i++) members[i] = i;\n"
    "  void* mine[1] = {args[0]};\n"
    "  void* peers[8];\n"
    "  if (rt->coll_exchange(rt->rendezvous, d, 1, \"sum\", members, n, mine, 1, peers, err)) return 1;\n"
    "  int64_t* r = results[0];\n"
    "  r[0] = 0;\n"
    "  for (int64_t i = 0; i < n; i++) r[0] += ((const int64_t*)peers[i])[0];\n"
    "  r[1] = rt->replica_id;\n"
    "  r[2] = rt->partition_id;\n"
    "  return rt->coll_barrier(rt->rendezvous, d, 1, \"sum\", members, n, err);\n"
    "}\n";

typedef struct coll_job {
  PJRT_Client* client;
  PJRT_LoadedExecutable* exe;
  PJRT_Device* const* devices;
  int loops;
  int64_t bad; /* the device that fails, or -1 */
} coll_job;

static void* run_coll(void* p) {
  coll_job* j = p;
  for (int l = 0; l < j->loops; l++) {
    PJRT_Buffer* in[4][1];
    PJRT_Buffer* out[4][1] = {{0}};
    PJRT_Buffer* const* argl[4];
    PJRT_Buffer** outl[4];
    for (int d = 0; d < 4; d++) {
      int64_t v[2] = {d + 1 + l, j->bad};
      int64_t dims[1] = {2};
      ARGS(PJRT_Client_BufferFromHostBuffer_Args, a);
      a.client = j->client;
      a.data = v;
      a.type = PJRT_Buffer_Type_S64;
      a.dims = dims;
      a.num_dims = 1;
      a.host_buffer_semantics = PJRT_HostBufferSemantics_kImmutableOnlyDuringCall;
      a.device = j->devices[d];
      MUST(api->PJRT_Client_BufferFromHostBuffer(&a));
      ARGS(PJRT_Event_Destroy_Args, ed);
      ed.event = a.done_with_host_buffer;
      MUST(api->PJRT_Event_Destroy(&ed));
      in[d][0] = a.buffer;
      argl[d] = in[d];
      outl[d] = out[d];
    }
    ARGS(PJRT_ExecuteOptions, o);
    ARGS(PJRT_LoadedExecutable_Execute_Args, a);
    a.executable = j->exe;
    a.options = &o;
    a.argument_lists = argl;
    a.num_devices = 4;
    a.num_args = 1;
    a.output_lists = outl;
    PJRT_Error* e = api->PJRT_LoadedExecutable_Execute(&a);
    if (j->bad < 0) {
      must(e, "collective Execute", __LINE__);
      for (int d = 0; d < 4; d++) {
        int64_t r[3] = {0};
        download(out[d][0], r, sizeof(r));
        CHECK(r[0] == 10 + 4 * l && r[1] == 0 && r[2] == d, "device %d: sum %lld (want %d), replica %lld, partition %lld",
              d, (long long)r[0], 10 + 4 * l, (long long)r[1], (long long)r[2]);
        destroy_buffer(out[d][0]);
      }
    } else {
      CHECK(e != NULL, "a device failed, yet Execute succeeded");
      if (e != NULL) {
        ARGS(PJRT_Error_Message_Args, m);
        m.error = e;
        api->PJRT_Error_Message(&m);
        char want[64];
        snprintf(want, sizeof(want), "device %lld failed first", (long long)j->bad);
        CHECK(memmem(m.message, m.message_size, want, strlen(want)) != NULL, "error %.*s, want %s", (int)m.message_size,
              m.message, want);
        ARGS(PJRT_Error_Destroy_Args, d);
        d.error = e;
        api->PJRT_Error_Destroy(&d);
      }
      for (int d = 0; d < 4; d++) CHECK(out[d][0] == NULL, "device %d: an output after an error", d);
    }
    for (int d = 0; d < 4; d++) destroy_buffer(in[d][0]);
  }
  return NULL;
}

static PJRT_NamedValue nv_int(const char* name, int64_t v) {
  PJRT_NamedValue n;
  memset(&n, 0, sizeof(n));
  n.struct_size = PJRT_NamedValue_STRUCT_SIZE;
  n.name = name;
  n.name_size = strlen(name);
  n.type = PJRT_NamedValue_kInt64;
  n.int64_value = v;
  return n;
}

static PJRT_NamedValue nv_str(const char* name, const char* v) {
  PJRT_NamedValue n;
  memset(&n, 0, sizeof(n));
  n.struct_size = PJRT_NamedValue_STRUCT_SIZE;
  n.name = name;
  n.name_size = strlen(name);
  n.type = PJRT_NamedValue_kString;
  n.string_value = v;
  n.value_size = strlen(v);
  return n;
}

int main(int argc, char** argv) {
  if (argc != 5) {
    fprintf(stderr, "usage: rt_driver PLUGIN WORKER CACHE LOOPS\n");
    return 2;
  }
  void* h = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
  if (h == NULL) {
    fprintf(stderr, "FAIL dlopen: %s\n", dlerror());
    return 1;
  }
  const PJRT_Api* (*get)(void) = (const PJRT_Api* (*)(void))dlsym(h, "GetPjrtApi");
  live_buffers = (int64_t(*)(void))dlsym(h, "stela_cpu_live_buffers");
  if (get == NULL || live_buffers == NULL) {
    fprintf(stderr, "FAIL: the plugin does not export GetPjrtApi and stela_cpu_live_buffers\n");
    return 1;
  }
  api = get();
  int loops = atoi(argv[4]);

  for (int i = 0; i < N * N; i++) {
    A[i] = (float)((i * 7919) % 201 - 100) / 64.0f;
    B[i] = (float)((i * 104729) % 199 - 99) / 32.0f;
  }
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) {
      double s = 0, t = 0;
      for (int k = 0; k < N; k++) {
        s += (double)A[i * N + k] * B[k * N + j];
        t += (double)A[i * N + k] * B[j * N + k];
      }
      Cwant[i * N + j] = (float)s;
      Dwant[i * N + j] = t;
    }

  CHECK(live_buffers() == 0, "live buffers at start: %lld", (long long)live_buffers());
  PJRT_NamedValue opts[4] = {nv_int("cpu_device_count", 4), nv_int("cpu_threads", 3), nv_str("stela_worker", argv[2]),
                             nv_str("stela_cache_dir", argv[3])};
  ARGS(PJRT_Client_Create_Args, ca);
  ca.create_options = opts;
  ca.num_options = 4;
  MUST(api->PJRT_Client_Create(&ca));
  PJRT_Client* c = ca.client;

  /* A bad cpu_threads is an error. */
  PJRT_NamedValue bad = nv_int("cpu_threads", 0);
  ARGS(PJRT_Client_Create_Args, cb);
  cb.create_options = &bad;
  cb.num_options = 1;
  PJRT_Error* e = api->PJRT_Client_Create(&cb);
  CHECK(e != NULL, "cpu_threads = 0 accepted");
  if (e != NULL) {
    ARGS(PJRT_Error_Destroy_Args, d);
    d.error = e;
    api->PJRT_Error_Destroy(&d);
  }

  PJRT_Program p;
  memset(&p, 0, sizeof(p));
  p.struct_size = PJRT_Program_STRUCT_SIZE;
  p.code = (char*)program;
  p.code_size = strlen(program);
  p.format = "mlir";
  p.format_size = 4;
  static const char portable_opts[] = "\x1a\x0f\x08\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01\x20\x01\x28\x01\x20\x01";
  ARGS(PJRT_Client_Compile_Args, comp);
  comp.client = c;
  comp.program = &p;
  comp.compile_options = portable_opts;
  comp.compile_options_size = sizeof(portable_opts) - 1;
  MUST(api->PJRT_Client_Compile(&comp));

  ARGS(PJRT_Client_Devices_Args, da);
  da.client = c;
  MUST(api->PJRT_Client_Devices(&da));
  CHECK(da.num_devices == 4, "%zu devices", da.num_devices);

  /* One device alone, then all four at once. */
  job jobs[4];
  for (int d = 0; d < 4; d++) jobs[d] = (job){.client = c, .exe = comp.executable, .device = da.devices[d], .loops = loops};
  run_job(&jobs[0]);
  CHECK(live_buffers() == 0, "live buffers after one device: %lld", (long long)live_buffers());
  pthread_t t[4];
  for (int d = 0; d < 4; d++) pthread_create(&t[d], NULL, run_job, &jobs[d]);
  for (int d = 0; d < 4; d++) pthread_join(t[d], NULL);
  CHECK(live_buffers() == 0, "live buffers after four devices: %lld", (long long)live_buffers());

  /* Collectives: an executable of 1 replica x 4 partitions. */
  static const char coll_opts[] = "\x1a\x0f\x08\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01\x20\x01\x28\x04";
  PJRT_Program cp;
  memset(&cp, 0, sizeof(cp));
  cp.struct_size = PJRT_Program_STRUCT_SIZE;
  cp.code = (char*)coll_program;
  cp.code_size = strlen(coll_program);
  cp.format = "mlir";
  cp.format_size = 4;
  ARGS(PJRT_Client_Compile_Args, ccomp);
  ccomp.client = c;
  ccomp.program = &cp;
  ccomp.compile_options = coll_opts;
  ccomp.compile_options_size = sizeof(coll_opts) - 1;
  MUST(api->PJRT_Client_Compile(&ccomp));
  coll_job cj[2] = {{.client = c, .exe = ccomp.executable, .devices = da.devices, .loops = loops, .bad = -1},
                    {.client = c, .exe = ccomp.executable, .devices = da.devices, .loops = loops, .bad = -1}};
  run_coll(&cj[0]);
  pthread_t ct[2];
  for (int k = 0; k < 2; k++) pthread_create(&ct[k], NULL, run_coll, &cj[k]);
  for (int k = 0; k < 2; k++) pthread_join(ct[k], NULL);
  for (int64_t bad = 0; bad < 4; bad += 3) {
    coll_job fj = {.client = c, .exe = ccomp.executable, .devices = da.devices, .loops = 2, .bad = bad};
    run_coll(&fj);
  }
  run_coll(&cj[0]); /* still fine */
  ARGS(PJRT_LoadedExecutable_Destroy_Args, ced);
  ced.executable = ccomp.executable;
  MUST(api->PJRT_LoadedExecutable_Destroy(&ced));
  CHECK(live_buffers() == 0, "live buffers after collectives: %lld", (long long)live_buffers());

  /* The count follows buffers: two made, one destroyed, one freed with
     its client. */
  PJRT_Buffer* b1 = upload(c, da.devices[0], A);
  PJRT_Buffer* b2 = upload(c, da.devices[1], B);
  CHECK(live_buffers() == 2, "live buffers: %lld, want 2", (long long)live_buffers());
  destroy_buffer(b1);
  CHECK(live_buffers() == 1, "live buffers: %lld, want 1", (long long)live_buffers());

  ARGS(PJRT_Client_Destroy_Args, cd);
  cd.client = c;
  MUST(api->PJRT_Client_Destroy(&cd));
  CHECK(live_buffers() == 0, "live buffers after client destroy: %lld, want 0", (long long)live_buffers());
  destroy_buffer(b2);

  /* The executable outlives its client. */
  ARGS(PJRT_LoadedExecutable_Destroy_Args, ed);
  ed.executable = comp.executable;
  MUST(api->PJRT_LoadedExecutable_Destroy(&ed));
  CHECK(live_buffers() == 0, "live buffers at end: %lld", (long long)live_buffers());

  /* A second client gets the program from the compile cache (which may
     start a thread loading the BLAS library) and runs it on one device. */
  ARGS(PJRT_Client_Create_Args, ca2);
  ca2.create_options = opts + 1;
  ca2.num_options = 3;
  MUST(api->PJRT_Client_Create(&ca2));
  comp.client = ca2.client;
  comp.executable = NULL;
  MUST(api->PJRT_Client_Compile(&comp));
  ARGS(PJRT_Client_Devices_Args, da2);
  da2.client = ca2.client;
  MUST(api->PJRT_Client_Devices(&da2));
  job j2 = {.client = ca2.client, .exe = comp.executable, .device = da2.devices[0], .loops = 1};
  run_job(&j2);
  ed.executable = comp.executable;
  MUST(api->PJRT_LoadedExecutable_Destroy(&ed));
  cd.client = ca2.client;
  MUST(api->PJRT_Client_Destroy(&cd));
  CHECK(live_buffers() == 0, "live buffers after the second client: %lld", (long long)live_buffers());

  if (failures > 0) return 1;
  printf("PASS\n");
  return 0;
}
