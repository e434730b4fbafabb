/*
 * compile.c: PJRT_Client_Compile (docs/cpu-plugin.md is the contract).
 *
 * The plugin parses no StableHLO. It checks the program format, decodes
 * the few CompileOptionsProto fields that decide which devices the
 * executable runs on, then looks up the compile cache; on a miss it runs
 * the compile worker
 *
 *   STELA_CPU_WORKER=1 <worker> compile <program.mlir> <options.pb> <out.so>
 *
 * in its own process group, with stdout to /dev/null, stderr captured and
 * a timeout after which the whole group is killed. A worker that fails in
 * any way is a PJRT error, never a crash of the host. The resulting
 * shared object is dlopen'ed; its stela_signature text gives the
 * parameter and result types, stela_entry runs it.
 */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "internal.h"

extern char** environ;

#define FN "PJRT_Client_Compile"
#define MAX_STDERR (64 * 1024)

/* ---- CompileOptionsProto, as far as the plugin needs it ---- */

typedef struct compile_options {
  long long replicas, partitions; /* 0 if absent */
  long long device_ordinal;       /* -1 if absent */
  bool portable;
  bool has_assignment;
  long long da_replicas, da_partitions; /* DeviceAssignmentProto counts, 0 if absent */
  size_t nparts;                        /* computation_devices seen */
  long long* ids;                       /* [nparts][cap] */
  size_t* nids;                         /* ids per computation */
  size_t cap;
} compile_options;

typedef struct pb {
  const unsigned char* p;
  const unsigned char* end;
} pb;

static bool pb_varint(pb* r, uint64_t* v) {
  uint64_t x = 0;
  for (int shift = 0; shift < 70; shift += 7) {
    if (r->p >= r->end) return false;
    unsigned char b = *r->p++;
    x |= (uint64_t)(b & 0x7f) << shift;
    if (!(b & 0x80)) {
      *v = x;
      return true;
    }
  }
  return false;
}

/* Reads one field: its number, wire type, and either a varint value or a
   (pointer, length) for length-delimited fields. Fixed-width fields are
   skipped by the caller's default branch. */
typedef struct pb_field {
  uint64_t num;
  int wire;
  uint64_t v;
  pb sub;
} pb_field;

static bool pb_next(pb* r, pb_field* f) {
  uint64_t tag;
  if (!pb_varint(r, &tag)) return false;
  f->num = tag >> 3;
  f->wire = (int)(tag & 7);
  switch (f->wire) {
    case 0:
      return pb_varint(r, &f->v);
    case 1:
      if (r->end - r->p < 8) return false;
      r->p += 8;
      return true;
    case 2: {
      uint64_t n;
      if (!pb_varint(r, &n) || n > (uint64_t)(r->end - r->p)) return false;
      f->sub.p = r->p;
      f->sub.end = r->p + n;
      r->p += n;
      return true;
    }
    case 5:
      if (r->end - r->p < 4) return false;
      r->p += 4;
      return true;
    default: /* groups (3, 4) are not used by these messages */
      return false;
  }
}

static bool add_id(compile_options* o, size_t part, long long id) {
  if (o->nids[part] == o->cap) {
    size_t cap = o->cap ? 2 * o->cap : 8;
    long long* ids = calloc(o->nparts * cap, sizeof(long long));
    if (ids == NULL) return false;
    for (size_t p = 0; p < o->nparts; p++)
      memcpy(ids + p * cap, o->ids + p * o->cap, o->nids[p] * sizeof(long long));
    free(o->ids);
    o->ids = ids;
    o->cap = cap;
  }
  o->ids[part * o->cap + o->nids[part]++] = id;
  return true;
}

static bool add_part(compile_options* o) {
  size_t n = o->nparts + 1;
  size_t* nids = realloc(o->nids, n * sizeof(size_t));
  if (nids == NULL) return false;
  o->nids = nids;
  nids[o->nparts] = 0;
  if (o->cap > 0) {
    long long* ids = realloc(o->ids, n * o->cap * sizeof(long long));
    if (ids == NULL) return false;
    o->ids = ids;
  }
  o->nparts = n;
  return true;
}

static void free_options(compile_options* o) {
  free(o->ids);
  free(o->nids);
}

/* DeviceAssignmentProto: 1 replica_count, 2 computation_count,
   3 computation_devices { 1 replica_device_ids (packed or not) }. */
static int parse_assignment(pb r, compile_options* o) {
  pb_field f;
  while (r.p < r.end) {
    if (!pb_next(&r, &f)) return -1;
    if (f.num == 1 && f.wire == 0) o->da_replicas = (long long)f.v;
    else if (f.num == 2 && f.wire == 0) o->da_partitions = (long long)f.v;
    else if (f.num == 3 && f.wire == 2) {
      if (!add_part(o)) return -2;
      size_t part = o->nparts - 1;
      pb c = f.sub;
      pb_field g;
      while (c.p < c.end) {
        if (!pb_next(&c, &g)) return -1;
        if (g.num != 1) continue;
        if (g.wire == 0) {
          if (!add_id(o, part, (long long)g.v)) return -2;
        } else if (g.wire == 2) {
          pb packed = g.sub;
          while (packed.p < packed.end) {
            uint64_t v;
            if (!pb_varint(&packed, &v)) return -1;
            if (!add_id(o, part, (long long)v)) return -2;
          }
        }
      }
    }
  }
  return 0;
}

/* Returns 0, -1 for malformed bytes, -2 for out of memory. */
static int parse_options(const char* bytes, size_t n, compile_options* o) {
  memset(o, 0, sizeof(*o));
  o->device_ordinal = -1;
  pb r = {(const unsigned char*)bytes, (const unsigned char*)bytes + n};
  pb_field f;
  while (r.p < r.end) {
    if (!pb_next(&r, &f)) return -1;
    if (f.num == 4 && f.wire == 0) {
      o->portable = f.v != 0;
    } else if (f.num == 3 && f.wire == 2) { /* ExecutableBuildOptionsProto */
      pb b = f.sub;
      pb_field g;
      while (b.p < b.end) {
        if (!pb_next(&b, &g)) return -1;
        if (g.num == 1 && g.wire == 0) o->device_ordinal = (long long)(int64_t)g.v;
        else if (g.num == 4 && g.wire == 0) o->replicas = (long long)g.v;
        else if (g.num == 5 && g.wire == 0) o->partitions = (long long)g.v;
        else if (g.num == 9 && g.wire == 2) {
          o->has_assignment = true;
          int rc = parse_assignment(g.sub, o);
          if (rc != 0) return rc;
        }
      }
    }
  }
  return 0;
}

/* Decides where the executable runs. On success *portable is set, or
   assignment[r*P + p] holds the device id of replica r, partition p. */
static PJRT_Error* place(PJRT_Client* c, const compile_options* o, bool* portable, size_t* R, size_t* P,
                         int** assignment) {
  long long r = o->replicas > 0 ? o->replicas : 1;
  long long p = o->partitions > 0 ? o->partitions : 1;
  /* A client of several processes: device ids name the job's devices. */
  long long ndev = c->nodes > 1 ? (long long)c->ndev * c->nodes : c->ndev;
  if (r > 4096 || p > 4096 || r * p > ndev)
    return stela_error(PJRT_Error_Code_INVALID_ARGUMENT,
                       FN ": %lld replicas x %lld partitions need %lld devices, the client has %lld (set create option "
                       "cpu_device_count or STELA_CPU_DEVICES)",
                       r, p, r * p, ndev);
  *R = (size_t)r;
  *P = (size_t)p;
  *assignment = NULL;
  if (o->portable) {
    if (r * p != 1)
      return stela_error(PJRT_Error_Code_INVALID_ARGUMENT,
                         FN ": a portable executable runs on one device, not %lld replicas x %lld partitions", r, p);
    *portable = true;
    return NULL;
  }
  *portable = false;
  int* a = calloc((size_t)(r * p), sizeof(int));
  if (a == NULL) return stela_oom();
  if (o->has_assignment) {
    if ((o->da_replicas != 0 && o->da_replicas != r) || (o->da_partitions != 0 && o->da_partitions != p) ||
        o->nparts != (size_t)p) {
      free(a);
      return stela_error(PJRT_Error_Code_INVALID_ARGUMENT,
                         FN ": the device assignment is %lld replicas x %zu partitions, the options say %lld x %lld",
                         o->da_replicas ? o->da_replicas : r, o->nparts, r, p);
    }
    for (size_t j = 0; j < (size_t)p; j++) {
      if (o->nids[j] != (size_t)r) {
        free(a);
        return stela_error(PJRT_Error_Code_INVALID_ARGUMENT,
                           FN ": the device assignment lists %zu devices for partition %zu, want %lld", o->nids[j], j, r);
      }
      for (size_t i = 0; i < (size_t)r; i++) {
        long long id = o->ids[j * o->cap + i];
        if (id < 0 || id >= ndev) {
          free(a);
          return stela_error(PJRT_Error_Code_INVALID_ARGUMENT,
                             FN ": the device assignment names device %lld, the client has devices 0 to %lld", id,
                             ndev - 1);
        }
        a[i * (size_t)p + j] = (int)id;
      }
    }
    for (long long i = 0; i < r * p; i++)
      for (long long k = 0; k < i; k++)
        if (a[i] == a[k]) {
          free(a);
          return stela_error(PJRT_Error_Code_INVALID_ARGUMENT, FN ": the device assignment uses device %d twice", a[i]);
        }
  } else if (r * p == 1) {
    long long d = o->device_ordinal >= 0 ? o->device_ordinal : 0;
    if (d >= c->ndev) {
      free(a);
      return stela_error(PJRT_Error_Code_INVALID_ARGUMENT, FN ": device_ordinal %lld, the client has devices 0 to %d", d,
                         c->ndev - 1);
    }
    /* This process's device d, as a job's device id. */
    a[0] = (int)(d + (c->nodes > 1 ? (long long)c->node * c->ndev : 0));
  } else {
    for (long long i = 0; i < r * p; i++) a[i] = (int)i;
  }
  *assignment = a;
  return NULL;
}

/* ---- The worker and the cache ---- */

static bool is_executable_file(const char* path) {
  struct stat st;
  return stat(path, &st) == 0 && S_ISREG(st.st_mode) && access(path, X_OK) == 0;
}

/* The worker: create option stela_worker, else $STELA_CPU_WORKER_PATH,
   else `stela` on $PATH. */
static PJRT_Error* find_worker(PJRT_Client* c, char** out) {
  if (c->worker != NULL) {
    if (!is_executable_file(c->worker))
      return stela_error(PJRT_Error_Code_FAILED_PRECONDITION,
                         FN ": the compile worker %s (create option stela_worker) is not an executable file",
                         c->worker);
    *out = stela_strdup(c->worker);
    return *out ? NULL : stela_oom();
  }
  const char* env = getenv("STELA_CPU_WORKER_PATH");
  if (env != NULL && *env != '\0') {
    if (!is_executable_file(env))
      return stela_error(PJRT_Error_Code_FAILED_PRECONDITION,
                         FN ": the compile worker %s ($STELA_CPU_WORKER_PATH) is not an executable file", env);
    *out = stela_strdup(env);
    return *out ? NULL : stela_oom();
  }
  const char* path = getenv("PATH");
  if (path != NULL) {
    for (const char* p = path;;) {
      const char* colon = strchr(p, ':');
      size_t n = colon ? (size_t)(colon - p) : strlen(p);
      if (n > 0) {
        char* cand = stela_asprintf("%.*s/stela", (int)n, p);
        if (cand == NULL) return stela_oom();
        if (cand[0] == '/' && is_executable_file(cand)) {
          *out = cand;
          return NULL;
        }
        free(cand);
      }
      if (colon == NULL) break;
      p = colon + 1;
    }
  }
  return stela_error(PJRT_Error_Code_FAILED_PRECONDITION,
                     FN ": no compile worker: set the client create option stela_worker or $STELA_CPU_WORKER_PATH to "
                     "a program that links package github.com/stela-ml/stela/pjrt/cpu, or put the stela command on "
                     "$PATH (go install github.com/stela-ml/stela/cmd/stela)");
}

/* The CPU identity that goes into the cache key: vendor, family, model and
   feature flags of the first processor in /proc/cpuinfo. */
static char* cpu_features;
static pthread_once_t cpu_once = PTHREAD_ONCE_INIT;

static void read_cpu_features(void) {
  FILE* f = fopen("/proc/cpuinfo", "r");
  size_t cap = 256, len = 0;
  char* out = malloc(cap);
  if (out == NULL) {
    if (f) fclose(f);
    return;
  }
  out[0] = '\0';
  if (f != NULL) {
    char line[8192];
    while (fgets(line, sizeof(line), f) != NULL) {
      if (line[0] == '\n') break; /* end of the first processor */
      if (strncmp(line, "vendor_id", 9) && strncmp(line, "cpu family", 10) && strncmp(line, "model\t", 6) &&
          strncmp(line, "flags", 5) && strncmp(line, "Features", 8) && strncmp(line, "CPU implementer", 15) &&
          strncmp(line, "CPU part", 8))
        continue;
      size_t n = strlen(line);
      if (len + n + 1 > cap) {
        cap = 2 * (len + n + 1);
        char* o2 = realloc(out, cap);
        if (o2 == NULL) break;
        out = o2;
      }
      memcpy(out + len, line, n + 1);
      len += n;
    }
    fclose(f);
  }
  cpu_features = out;
}

/* Frees the CPU string when the plugin is unloaded (dlclose), so that a
   host that loads and unloads it leaks nothing. */
__attribute__((destructor)) static void free_cpu_features(void) {
  free(cpu_features);
  cpu_features = NULL;
}

static void hash_field(stela_sha256* h, const void* p, size_t n) {
  uint64_t len = n;
  stela_sha256_update(h, &len, sizeof(len));
  stela_sha256_update(h, p, n);
}

/* One field's whole encoding (tag and value) in a message. */
typedef struct pb_span {
  const unsigned char* p;
  size_t n;
} pb_span;

static int cmp_span(const void* a, const void* b) {
  const pb_span *x = a, *y = b;
  int c = memcmp(x->p, y->p, x->n < y->n ? x->n : y->n);
  return c != 0 ? c : (x->n > y->n) - (x->n < y->n);
}

/* Hashes DebugOptions with its fields sorted. XLA serializes its map
   fields (xla_gpu_analytical_latency_estimator_options,
   xla_backend_extra_options) in hash-map order, which differs from one
   process to the next, so the same options hashed as bytes missed the
   cache in every new JAX process. Stela reads nothing of DebugOptions, so
   the order of its fields cannot change what it compiles. false when the
   bytes are not a message (the caller hashes them as they are). */
static bool hash_debug_options(stela_sha256* h, pb r) {
  size_t n = 0, cap = 64;
  pb_span* spans = malloc(cap * sizeof(pb_span));
  if (spans == NULL) return false;
  pb_field f;
  while (r.p < r.end) {
    const unsigned char* start = r.p;
    if (!pb_next(&r, &f)) {
      free(spans);
      return false;
    }
    if (n == cap) {
      pb_span* s = realloc(spans, 2 * cap * sizeof(pb_span));
      if (s == NULL) {
        free(spans);
        return false;
      }
      spans = s;
      cap *= 2;
    }
    spans[n++] = (pb_span){start, (size_t)(r.p - start)};
  }
  qsort(spans, n, sizeof(pb_span), cmp_span);
  static const char tag[] = "sorted-debug-options";
  hash_field(h, tag, sizeof(tag) - 1);
  for (size_t i = 0; i < n; i++) hash_field(h, spans[i].p, spans[i].n);
  free(spans);
  return true;
}

/* Hashes a serialized CompileOptionsProto field by field, its
   executable_build_options (3) field by field, and their debug_options
   (3) sorted (hash_debug_options). Malformed options hash as bytes. */
static void hash_options(stela_sha256* h, const char* opts, size_t opts_size) {
  pb r = {(const unsigned char*)opts, (const unsigned char*)opts + opts_size};
  stela_sha256 t = *h;
  pb_field f;
  while (r.p < r.end) {
    const unsigned char* start = r.p;
    if (!pb_next(&r, &f)) goto raw;
    if (!(f.num == 3 && f.wire == 2)) {
      hash_field(&t, start, (size_t)(r.p - start));
      continue;
    }
    static const char ebo[] = "executable-build-options";
    hash_field(&t, ebo, sizeof(ebo) - 1);
    pb b = f.sub;
    pb_field g;
    while (b.p < b.end) {
      const unsigned char* gs = b.p;
      if (!pb_next(&b, &g)) goto raw;
      if (g.num == 3 && g.wire == 2) {
        if (!hash_debug_options(&t, g.sub)) goto raw;
      } else {
        hash_field(&t, gs, (size_t)(b.p - gs));
      }
    }
    static const char end[] = "end";
    hash_field(&t, end, sizeof(end) - 1);
  }
  *h = t;
  return;
raw:
  hash_field(h, opts, opts_size);
}

static bool is_name_char(char ch) {
  return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') || ch == '_' ||
         ch == '.' || ch == '$' || ch == '-' || ch == '#' || ch == '%' || ch == '@';
}

/* The index just past the string literal that starts at s[i] ('"'). */
static size_t skip_string(const char* s, size_t n, size_t i) {
  for (i++; i < n && s[i] != '"'; i++)
    if (s[i] == '\\') i++;
  return i < n ? i + 1 : n;
}

/* The index just past the parenthesized group that starts at s[i] ('('),
   string literals inside it included. */
static size_t skip_group(const char* s, size_t n, size_t i) {
  int depth = 0;
  while (i < n) {
    char ch = s[i];
    if (ch == '"') {
      i = skip_string(s, n, i);
      continue;
    }
    i++;
    if (ch == '(') depth++;
    if (ch == ')' && --depth == 0) return i;
  }
  return n;
}

/* Whether the line at s (n bytes to the end of the text) defines a
   location alias: `#name = loc(...)`. */
static bool is_loc_alias(const char* s, size_t n) {
  size_t i = 1;
  while (i < n && is_name_char(s[i])) i++;
  while (i < n && s[i] == ' ') i++;
  if (i >= n || s[i] != '=') return false;
  for (i++; i < n && s[i] == ' '; i++) {
  }
  return n - i >= 4 && memcmp(s + i, "loc(", 4) == 0;
}

/* The program text without its source locations: every loc(...) outside
   string literals goes, with the blanks before it, and so does every
   location alias line (`#loc3 = loc("model.go":42:0)`). Stela prints each
   op's Go line into the program it compiles, so that errors name it; the
   cache key is computed over this form, so that the same program written
   on another line is found in the cache. Sets *out_n; NULL when out of
   memory. */
static char* strip_locations(const char* s, size_t n, size_t* out_n) {
  char* out = malloc(n + 1);
  if (out == NULL) return NULL;
  size_t o = 0, i = 0;
  bool line_start = true;
  while (i < n) {
    char ch = s[i];
    if (line_start && ch == '#' && is_loc_alias(s + i, n - i)) {
      while (i < n && s[i] != '\n') i++;
      if (i < n) i++;
      continue;
    }
    line_start = false;
    if (ch == '"') {
      size_t e = skip_string(s, n, i);
      memcpy(out + o, s + i, e - i);
      o += e - i;
      i = e;
      continue;
    }
    if (ch == 'l' && n - i >= 4 && memcmp(s + i, "loc(", 4) == 0 && (i == 0 || !is_name_char(s[i - 1]))) {
      while (o > 0 && (out[o - 1] == ' ' || out[o - 1] == '\t')) o--;
      i = skip_group(s, n, i + 3);
      continue;
    }
    out[o++] = ch;
    line_start = ch == '\n';
    i++;
  }
  *out_n = o;
  return out;
}

/* The cache key: a hash of (program text without its locations, serialized
   compile options (hash_options: their DebugOptions sorted), the worker's identity, the CPU features). The identity
   is the create option stela_worker_id when given (Stela passes the
   worker's Go build ID, which is the same for every build of the same
   sources, so `go run` and test binaries, rebuilt into new paths each
   time, still hit the cache); else the worker's path, size and
   modification time. */
static PJRT_Error* cache_key(const char* worker, const char* worker_id, const char* code, size_t code_size,
                             const char* opts, size_t opts_size, char key[65]) {
  struct stat st;
  if (stat(worker, &st) != 0)
    return stela_error(PJRT_Error_Code_FAILED_PRECONDITION, FN ": cannot stat the compile worker %s: %s", worker,
                       strerror(errno));
  pthread_once(&cpu_once, read_cpu_features);
  char meta[128];
  int n = snprintf(meta, sizeof(meta), "%lld %lld.%09ld", (long long)st.st_size, (long long)st.st_mtim.tv_sec,
                   (long)st.st_mtim.tv_nsec);
  size_t program_size;
  char* program = strip_locations(code, code_size, &program_size);
  if (program == NULL) return stela_oom();
  stela_sha256 h;
  stela_sha256_init(&h);
  static const char version[] = "stela-cpu-compile-cache-v1";
  hash_field(&h, version, sizeof(version) - 1);
  hash_field(&h, program, program_size);
  free(program);
  hash_options(&h, opts, opts_size);
  if (worker_id != NULL && worker_id[0] != '\0') {
    static const char tag[] = "build-id";
    hash_field(&h, tag, sizeof(tag) - 1);
    hash_field(&h, worker_id, strlen(worker_id));
  } else {
    hash_field(&h, worker, strlen(worker));
    hash_field(&h, meta, (size_t)n);
  }
  const char* cpu = cpu_features ? cpu_features : "";
  hash_field(&h, cpu, strlen(cpu));
  stela_sha256_hex(&h, key);
  return NULL;
}

static bool write_file(const char* path, const void* data, size_t n) {
  int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
  if (fd < 0) return false;
  const char* p = data;
  while (n > 0) {
    ssize_t w = write(fd, p, n);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) {
      close(fd);
      return false;
    }
    p += w;
    n -= (size_t)w;
  }
  return close(fd) == 0;
}

static long long now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* The message of a crashed worker without its stack dump: stderr up to
   the first line of a Go traceback ("goroutine N [", "runtime stack:"),
   at most 1 KiB, with a note that the rest was cut; NULL when there is
   nothing to cut (or no memory). The caller frees it. */
static char* crash_text(const char* text) {
  static const char* marks[] = {"\ngoroutine ", "\nruntime stack:", "\n[signal "};
  size_t n = strlen(text), cut = n;
  for (size_t i = 0; i < sizeof(marks) / sizeof(marks[0]); i++) {
    const char* m = strstr(text, marks[i]);
    if (m != NULL && (size_t)(m - text) < cut) cut = (size_t)(m - text);
  }
  if (cut > 1024) cut = 1024;
  if (cut == n) return NULL;
  while (cut > 0 && (text[cut - 1] == '\n' || text[cut - 1] == ' ')) cut--;
  return stela_asprintf("%.*s\n[%zu more bytes cut: a stack trace]", (int)cut, text, n - cut);
}

static const char* signal_name(int sig) {
  switch (sig) {
    case SIGSEGV:
      return "SIGSEGV";
    case SIGABRT:
      return "SIGABRT";
    case SIGKILL:
      return "SIGKILL";
    case SIGBUS:
      return "SIGBUS";
    case SIGILL:
      return "SIGILL";
    case SIGFPE:
      return "SIGFPE";
    case SIGTERM:
      return "SIGTERM";
    case SIGINT:
      return "SIGINT";
    case SIGQUIT:
      return "SIGQUIT";
    case SIGHUP:
      return "SIGHUP";
    case SIGPIPE:
      return "SIGPIPE";
    case SIGXCPU:
      return "SIGXCPU";
    default:
      return "a signal";
  }
}

/* The worker's stderr, trimmed of trailing space. */
typedef struct capture {
  char* buf;
  size_t len, cap;
  bool truncated;
} capture;

static void capture_read(int fd, capture* c, bool* eof) {
  char tmp[4096];
  for (;;) {
    ssize_t n = read(fd, tmp, sizeof(tmp));
    if (n < 0 && errno == EINTR) continue;
    if (n == 0) *eof = true;
    if (n <= 0) return;
    size_t take = (size_t)n;
    if (c->len + take > MAX_STDERR) {
      take = MAX_STDERR - c->len;
      c->truncated = true;
    }
    if (take > 0) {
      if (c->len + take + 1 > c->cap) {
        size_t cap = c->cap ? c->cap : 1024;
        while (cap < c->len + take + 1) cap *= 2;
        char* b = realloc(c->buf, cap);
        if (b == NULL) {
          c->truncated = true;
          return;
        }
        c->buf = b;
        c->cap = cap;
      }
      memcpy(c->buf + c->len, tmp, take);
      c->len += take;
      c->buf[c->len] = '\0';
    }
  }
}

static const char* capture_text(capture* c) {
  if (c->buf == NULL) return "";
  while (c->len > 0 && (c->buf[c->len - 1] == '\n' || c->buf[c->len - 1] == ' ' || c->buf[c->len - 1] == '\t' ||
                        c->buf[c->len - 1] == '\r'))
    c->buf[--c->len] = '\0';
  return c->buf;
}

/* envp for the worker: ours with STELA_CPU_WORKER=1, TMPDIR=<the
   compile's temporary directory> (tmpdir_var), so that whatever the
   worker and its tools leave behind, killed or not, goes with it, and
   STELA_CPU_WORKER_TIMEOUT_MS=<the compile timeout> (timeout_var), of
   which the worker gives its tools nine tenths (worker.go). */
static char** worker_env(const char* tmpdir_var, const char* timeout_var) {
  size_t n = 0;
  for (char** e = environ; e != NULL && *e != NULL; e++) n++;
  char** env = calloc(n + 4, sizeof(char*));
  if (env == NULL) return NULL;
  size_t k = 0;
  for (size_t i = 0; i < n; i++)
    if (strncmp(environ[i], "STELA_CPU_WORKER=", 17) != 0 && strncmp(environ[i], "TMPDIR=", 7) != 0 &&
        strncmp(environ[i], "STELA_CPU_WORKER_TIMEOUT_MS=", 28) != 0)
      env[k++] = environ[i];
  env[k++] = "STELA_CPU_WORKER=1";
  env[k++] = (char*)tmpdir_var;
  env[k++] = (char*)timeout_var;
  env[k] = NULL;
  return env;
}

/* Runs the worker and maps its fate to a PJRT error (docs/cpu-plugin.md,
   "Worker mode"). */
static PJRT_Error* run_worker(const char* worker, const char* prog, const char* opts, const char* out,
                              const char* tmpdir, long long timeout_ms) {
  int fds[2];
  if (pipe2(fds, O_CLOEXEC) != 0)
    return stela_error(PJRT_Error_Code_INTERNAL, FN ": pipe: %s", strerror(errno));
  posix_spawn_file_actions_t fa;
  posix_spawnattr_t attr;
  posix_spawn_file_actions_init(&fa);
  posix_spawnattr_init(&attr);
  posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0); /* the worker never writes to stdout */
  posix_spawn_file_actions_adddup2(&fa, fds[1], 2);
  /* Its own process group, so that a timeout kills the tools it runs too;
     default signal dispositions and an empty mask, whatever the host's. */
  sigset_t none, defaults;
  sigemptyset(&none);
  sigemptyset(&defaults);
  int reset[] = {SIGPIPE, SIGINT, SIGQUIT, SIGHUP, SIGTERM, SIGCHLD, SIGTTIN, SIGTTOU, SIGXFSZ};
  for (size_t i = 0; i < sizeof(reset) / sizeof(reset[0]); i++) sigaddset(&defaults, reset[i]);
  posix_spawnattr_setsigmask(&attr, &none);
  posix_spawnattr_setsigdefault(&attr, &defaults);
  posix_spawnattr_setpgroup(&attr, 0);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);

  char* argv[] = {(char*)worker, "compile", (char*)prog, (char*)opts, (char*)out, NULL};
  char* tmpdir_var = stela_asprintf("TMPDIR=%s", tmpdir);
  char* timeout_var = stela_asprintf("STELA_CPU_WORKER_TIMEOUT_MS=%lld", timeout_ms);
  char** envp = tmpdir_var && timeout_var ? worker_env(tmpdir_var, timeout_var) : NULL;
  pid_t pid = -1;
  int rc = envp ? posix_spawn(&pid, worker, &fa, &attr, argv, envp) : ENOMEM;
  free(envp);
  free(tmpdir_var);
  free(timeout_var);
  posix_spawn_file_actions_destroy(&fa);
  posix_spawnattr_destroy(&attr);
  close(fds[1]);
  if (rc != 0) {
    close(fds[0]);
    return stela_error(PJRT_Error_Code_FAILED_PRECONDITION, FN ": cannot start the compile worker %s: %s", worker,
                       strerror(rc));
  }
  /* While the worker runs (hundreds of milliseconds), load the BLAS
     library the programs' GEMMs call (stela_rt.h): its dlopen takes 10 to
     25 ms, which would otherwise fall on the first execution. */
  stela_rt_blas(NULL);

  fcntl(fds[0], F_SETFL, fcntl(fds[0], F_GETFL) | O_NONBLOCK);
  int pidfd = (int)syscall(SYS_pidfd_open, pid, 0); /* Linux 5.3; else poll waitpid */
  capture cap = {0};
  bool eof = false, exited = false, timed_out = false;
  int status = 0;
  long long deadline = now_ms() + timeout_ms;
  while (!exited) {
    pid_t w = waitpid(pid, &status, WNOHANG);
    if (w == pid) {
      exited = true;
      break;
    }
    if (w < 0 && errno != EINTR) { /* ECHILD: someone else reaped it (SIGCHLD ignored) */
      status = -1;
      exited = true;
      break;
    }
    long long left = deadline - now_ms();
    if (left <= 0) {
      timed_out = true;
      break;
    }
    struct pollfd pf[2];
    int n = 0;
    if (!eof) pf[n++] = (struct pollfd){.fd = fds[0], .events = POLLIN};
    if (pidfd >= 0) pf[n++] = (struct pollfd){.fd = pidfd, .events = POLLIN};
    int ms = (int)(left < 1000000 ? left : 1000000);
    if (pidfd < 0 && ms > 10) ms = 10; /* no pidfd: look at the child every 10 ms */
    poll(pf, (nfds_t)n, ms);
    if (!eof) capture_read(fds[0], &cap, &eof);
  }
  if (timed_out) {
    kill(-pid, SIGKILL);
    kill(pid, SIGKILL);
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
  }
  if (!eof) capture_read(fds[0], &cap, &eof); /* what is left; tools it started may still hold the pipe */
  close(fds[0]);
  if (pidfd >= 0) close(pidfd);

  const char* text = capture_text(&cap);
  const char* sep = *text ? ":\n" : "";
  /* For crashes: the message without a Go stack dump. */
  char* brief = crash_text(text);
  const char* btext = brief != NULL ? brief : text;
  const char* bsep = *btext ? ":\n" : "";
  PJRT_Error* err = NULL;
  if (timed_out) {
    err = stela_error(PJRT_Error_Code_INTERNAL,
                      "stela cpu compile: the compile worker %s ran past the timeout of %lld ms and was killed "
                      "(create option stela_compile_timeout_ms)%s%s",
                      worker, timeout_ms, sep, text);
  } else if (status == -1) {
    if (access(out, R_OK) != 0)
      err = stela_error(PJRT_Error_Code_INTERNAL,
                        "stela cpu compile: the exit status of the compile worker %s was lost (is SIGCHLD ignored?)%s%s",
                        worker, sep, text);
  } else if (WIFSIGNALED(status)) {
    err = stela_error(PJRT_Error_Code_INTERNAL, "stela cpu compile: the compile worker %s was killed by %s (%d)%s%s",
                      worker, signal_name(WTERMSIG(status)), WTERMSIG(status), bsep, btext);
  } else if (WIFEXITED(status)) {
    /* The worker's statuses (worker.go): 10 invalid program, 11
       unsupported, 12 a bug or a failed tool, 13 a tool missing or out of
       time; Go's runtime exits 2 on a fatal error (out of memory) or an
       unrecovered panic. */
    int code = WEXITSTATUS(status);
    if (code == 10 || code == 11 || code == 13) {
      err = stela_error(code == 10   ? PJRT_Error_Code_INVALID_ARGUMENT
                        : code == 11 ? PJRT_Error_Code_UNIMPLEMENTED
                                     : PJRT_Error_Code_UNAVAILABLE,
                        "stela cpu compile: %s", *text ? text : "the compile worker failed without a message");
    } else if (code == 12) {
      /* A bug the worker caught or a tool that failed: the message
         without a stack dump. */
      err = stela_error(PJRT_Error_Code_INTERNAL, "stela cpu compile: %s",
                        *btext ? btext : "the compile worker failed without a message");
    } else if (code == 2) {
      err = stela_error(PJRT_Error_Code_INTERNAL,
                        "stela cpu compile: the compile worker %s crashed (exit status 2: a fatal error or panic of "
                        "the Go runtime)%s%s",
                        worker, bsep, btext);
    } else if (code != 0) {
      err = stela_error(PJRT_Error_Code_INTERNAL, "stela cpu compile: the compile worker %s exited with status %d%s%s",
                        worker, code, bsep, btext);
    } else if (access(out, R_OK) != 0) {
      err = stela_error(PJRT_Error_Code_INTERNAL,
                        "stela cpu compile: the compile worker %s exited with status 0 but wrote no %s%s%s", worker, out,
                        sep, text);
    }
  } else {
    err = stela_error(PJRT_Error_Code_INTERNAL, "stela cpu compile: the compile worker %s stopped with status %#x",
                      worker, status);
  }
  /* A worker that succeeded writes to stderr only what the user asked
     for (STELA_LOG=compile's stage times, STELA_DUMP's problems): pass it
     on, so that clients other than Stela's runtime (JAX) see it too. */
  if (err == NULL && *text) fprintf(stderr, "%s\n", text);
  free(cap.buf);
  free(brief);
  return err;
}

/* ---- Loading a compiled object ---- */

static PJRT_Buffer_Type parse_dtype(const char* s, size_t n) {
  static const struct {
    const char* name;
    PJRT_Buffer_Type type;
  } names[] = {
      {"i1", PJRT_Buffer_Type_PRED},  {"si8", PJRT_Buffer_Type_S8},   {"si16", PJRT_Buffer_Type_S16},
      {"si32", PJRT_Buffer_Type_S32}, {"si64", PJRT_Buffer_Type_S64}, {"ui8", PJRT_Buffer_Type_U8},
      {"ui16", PJRT_Buffer_Type_U16}, {"ui32", PJRT_Buffer_Type_U32}, {"ui64", PJRT_Buffer_Type_U64},
      {"f16", PJRT_Buffer_Type_F16},  {"bf16", PJRT_Buffer_Type_BF16}, {"f32", PJRT_Buffer_Type_F32},
      {"f64", PJRT_Buffer_Type_F64},  {"c64", PJRT_Buffer_Type_C64},  {"c128", PJRT_Buffer_Type_C128},
      /* StableHLO's signless spellings, read as signed. */
      {"i8", PJRT_Buffer_Type_S8},    {"i16", PJRT_Buffer_Type_S16},  {"i32", PJRT_Buffer_Type_S32},
      {"i64", PJRT_Buffer_Type_S64},
      /* The narrow types, one element per byte (buffer.c). */
      {"si2", PJRT_Buffer_Type_S2},   {"si4", PJRT_Buffer_Type_S4},   {"ui2", PJRT_Buffer_Type_U2},
      {"ui4", PJRT_Buffer_Type_U4},   {"f8E4M3FN", PJRT_Buffer_Type_F8E4M3FN},
      {"f8E5M2", PJRT_Buffer_Type_F8E5M2}, {"f8E4M3FNUZ", PJRT_Buffer_Type_F8E4M3FNUZ},
      {"f8E5M2FNUZ", PJRT_Buffer_Type_F8E5M2FNUZ}, {"f8E4M3B11FNUZ", PJRT_Buffer_Type_F8E4M3B11FNUZ},
      {"f8E4M3", PJRT_Buffer_Type_F8E4M3}, {"f8E3M4", PJRT_Buffer_Type_F8E3M4},
      {"f8E8M0FNU", PJRT_Buffer_Type_F8E8M0FNU}, {"f4E2M1FN", PJRT_Buffer_Type_F4E2M1FN},
  };
  for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
    if (stela_name_is(s, n, names[i].name)) return names[i].type;
  return PJRT_Buffer_Type_INVALID;
}

void stela_program_retain(stela_program* p) { atomic_fetch_add(&p->refs, 1); }

static void program_free(stela_program* p) {
  if (p->dl != NULL) dlclose(p->dl);
  if (p->dl_fd >= 0) close(p->dl_fd);
  free(p->params);
  free(p->all_dims);
  free(p->out_types);
  free(p->out_dims);
  free(p->out_ranks);
  free(p->out_kinds);
  free(p->out_kind_sizes);
  free(p->res_alias);
  free(p->arg_alias);
  free(p->name);
  free(p);
}

void stela_program_release(stela_program* p) {
  if (p != NULL && atomic_fetch_sub(&p->refs, 1) == 1) program_free(p);
}

/* Parses stela_signature: "arg <dtype> <d0>x<d1>...\n" per parameter, then
   "res ..." per result; a scalar's dims are empty. */
static PJRT_Error* parse_signature(const char* path, const char* sig, stela_program* p) {
  size_t lines = 0, ndims = 0;
  for (const char* s = sig; *s; s++) {
    if (*s == '\n') lines++;
    if (*s == 'x' || *s == ' ') ndims++;
  }
  lines++;
  /* params holds the parameters in [0, lines) and, while parsing, the
     results in [lines, 2*lines); they move behind the parameters after. */
  p->params = calloc(2 * lines, sizeof(stela_param));
  p->all_dims = calloc(ndims + 1, sizeof(int64_t));
  if (p->params == NULL || p->all_dims == NULL) return stela_oom();
  stela_param* args = p->params;
  stela_param* res = p->params + lines;
  size_t na = 0, nr = 0, used = 0, lineno = 0;
  for (const char* s = sig; *s;) {
    lineno++;
    const char* end = strchr(s, '\n');
    if (end == NULL) end = s + strlen(s);
    const char* line = s;
    size_t len = (size_t)(end - s);
    s = *end ? end + 1 : end;
    while (len > 0 && (line[len - 1] == '\r' || line[len - 1] == ' ')) len--;
    if (len == 0) continue;
#define BAD(why)                                                                                                    \
  stela_error(PJRT_Error_Code_INTERNAL, "stela cpu compile: %s: stela_signature line %zu \"%.*s\": %s", path, lineno, \
              (int)len, line, why)
    const char* sp1 = memchr(line, ' ', len);
    if (sp1 == NULL) return BAD("want \"arg|res <dtype> <dims>\"");
    bool is_arg;
    if (stela_name_is(line, (size_t)(sp1 - line), "arg"))
      is_arg = true;
    else if (stela_name_is(line, (size_t)(sp1 - line), "res"))
      is_arg = false;
    else
      return BAD("want \"arg\" or \"res\"");
    if (is_arg && nr > 0) return BAD("parameters must come before results");
    const char* dt = sp1 + 1;
    const char* lend = line + len;
    const char* sp2 = memchr(dt, ' ', (size_t)(lend - dt));
    const char* dt_end = sp2 ? sp2 : lend;
    stela_param q = {0};
    q.type = parse_dtype(dt, (size_t)(dt_end - dt));
    if (q.type == PJRT_Buffer_Type_INVALID && dt_end - dt > 2 && dt[0] == 'f' && dt[1] == '6')
      return stela_error(PJRT_Error_Code_UNIMPLEMENTED,
                         "stela cpu compile: a parameter or result of element type %.*s: PJRT has no buffer type "
                         "for the f6 types (they compile as intermediate values only)",
                         (int)(dt_end - dt), dt);
    if (q.type == PJRT_Buffer_Type_INVALID) return BAD("unknown element type");
    q.esize = stela_type_size(q.type);
    q.dims = p->all_dims + used;
    q.nbytes = q.esize;
    if (sp2 != NULL) {
      const char* d = sp2 + 1;
      while (d < lend) {
        if (*d < '0' || *d > '9') return BAD("dimensions must be <d0>x<d1>x... of decimal numbers");
        int64_t v = 0;
        while (d < lend && *d >= '0' && *d <= '9') {
          if (v > (INT64_MAX - 9) / 10) return BAD("dimension too large");
          v = v * 10 + (*d++ - '0');
        }
        if (q.rank == STELA_MAX_RANK) return BAD("rank too large");
        q.dims[q.rank++] = v;
        if (__builtin_mul_overflow(q.nbytes, (size_t)v, &q.nbytes)) return BAD("array too large");
        if (d < lend) {
          if (*d != 'x' || d + 1 == lend) return BAD("dimensions must be <d0>x<d1>x... of decimal numbers");
          d++;
        }
      }
    }
    used += q.rank;
    if (is_arg)
      args[na++] = q;
    else
      res[nr++] = q;
#undef BAD
  }
  memmove(args + na, res, nr * sizeof(stela_param));
  p->nargs = na;
  p->nres = nr;
  for (size_t i = 0; i < na; i++) p->arg_bytes += (int64_t)p->params[i].nbytes;
  for (size_t i = 0; i < nr; i++) p->res_bytes += (int64_t)p->params[na + i].nbytes;

  /* Executable query answers. */
  size_t total = 0;
  for (size_t i = 0; i < nr; i++) total += p->params[na + i].rank;
  p->out_types = calloc(nr + 1, sizeof(PJRT_Buffer_Type));
  p->out_dims = calloc(total + 1, sizeof(int64_t));
  p->out_ranks = calloc(nr + 1, sizeof(size_t));
  p->out_kinds = calloc(nr + 1, sizeof(char*));
  p->out_kind_sizes = calloc(nr + 1, sizeof(size_t));
  if (!p->out_types || !p->out_dims || !p->out_ranks || !p->out_kinds || !p->out_kind_sizes) return stela_oom();
  size_t k = 0;
  for (size_t i = 0; i < nr; i++) {
    const stela_param* q = &p->params[na + i];
    p->out_types[i] = q->type;
    p->out_ranks[i] = q->rank;
    for (size_t j = 0; j < q->rank; j++) p->out_dims[k++] = q->dims[j];
    p->out_kinds[i] = "device";
    p->out_kind_sizes[i] = 6;
  }
  return NULL;
}

/* Parses stela_aliases: "<result> <argument>\n" per aliased result. The
   program writes result j into argument i's buffer and relies on the
   plugin passing the same buffer for both (execute.c). */
static PJRT_Error* parse_aliases(const char* path, const char* text, stela_program* p) {
#define BAD(why) stela_error(PJRT_Error_Code_INTERNAL, "stela cpu compile: %s: stela_aliases: %s", path, why)
  p->res_alias = malloc((p->nres + 1) * sizeof(int));
  p->arg_alias = malloc((p->nargs + 1) * sizeof(int));
  if (p->res_alias == NULL || p->arg_alias == NULL) return stela_oom();
  for (size_t j = 0; j < p->nres; j++) p->res_alias[j] = -1;
  for (size_t i = 0; i < p->nargs; i++) p->arg_alias[i] = -1;
  const char* s = text;
  while (*s) {
    char* end;
    long j = strtol(s, &end, 10);
    if (end == s || *end != ' ') return BAD("want lines \"<result> <argument>\"");
    s = end + 1;
    long i = strtol(s, &end, 10);
    if (end == s || *end != '\n') return BAD("want lines \"<result> <argument>\"");
    s = end + 1;
    if (j < 0 || (size_t)j >= p->nres || i < 0 || (size_t)i >= p->nargs) return BAD("an index out of range");
    if (p->res_alias[j] >= 0 || p->arg_alias[i] >= 0) return BAD("a result or argument aliased twice");
    const stela_param *a = &p->params[i], *r = &p->params[p->nargs + (size_t)j];
    bool same = a->type == r->type && a->rank == r->rank;
    for (size_t k = 0; same && k < a->rank; k++) same = a->dims[k] == r->dims[k];
    if (!same) return BAD("an aliased result whose type is not its argument's");
    p->res_alias[j] = (int)i;
    p->arg_alias[i] = (int)j;
    p->alias_bytes += (int64_t)r->nbytes;
  }
  return NULL;
#undef BAD
}

/* The module's name, from "module @name" in the program text (a lexical
   look, not a parse), else "main". */
static char* module_name(const char* code, size_t n) {
  size_t i = 0;
  while (i < n) {
    size_t ls = i;
    while (i < n && code[i] != '\n') i++;
    size_t le = i++;
    size_t j = ls;
    while (j < le && (code[j] == ' ' || code[j] == '\t')) j++;
    if (le - j >= 2 && code[j] == '/' && code[j + 1] == '/') continue;
    for (; j + 7 < le; j++) {
      if (memcmp(code + j, "module", 6) != 0) continue;
      if (j > ls && code[j - 1] != ' ' && code[j - 1] != '\t' && code[j - 1] != '{' && code[j - 1] != '}') continue;
      size_t k = j + 6;
      if (code[k] != ' ' && code[k] != '\t') continue;
      while (k < le && (code[k] == ' ' || code[k] == '\t')) k++;
      if (k >= le || code[k] != '@') continue;
      k++;
      if (k < le && code[k] == '"') {
        size_t e = ++k;
        while (e < le && code[e] != '"') e++;
        if (e > k) return stela_strndup(code + k, e - k);
        continue;
      }
      size_t e = k;
      while (e < le && (code[e] == '_' || code[e] == '.' || code[e] == '$' || code[e] == '-' ||
                        (code[e] >= '0' && code[e] <= '9') || (code[e] >= 'a' && code[e] <= 'z') ||
                        (code[e] >= 'A' && code[e] <= 'Z')))
        e++;
      if (e > k) return stela_strndup(code + k, e - k);
    }
  }
  return stela_strdup("main");
}

/* Loads a compiled object from its bytes (verified by the cache, or just
   written by the worker): what is mapped is exactly data (cache.c). what
   names it in messages; want_sig, when not NULL, is the signature its
   cache manifest holds, which the object's own must equal. */
static PJRT_Error* load_program(const unsigned char* data, size_t n, int file_fd, const char* what, const char* key,
                                const char* want_sig, const char* code, size_t code_size, stela_program** out) {
  stela_program* p = calloc(1, sizeof(*p));
  if (p == NULL) return stela_oom();
  atomic_init(&p->refs, 1);
  p->dl_fd = -1;
  memcpy(p->fingerprint, key, 65);
  p->code_size = (int64_t)n;
  char* why = NULL;
  p->dl = stela_dlopen_verified(data, n, file_fd, &p->dl_fd, &why);
  PJRT_Error* err = NULL;
  if (p->dl == NULL) {
    err = stela_error(PJRT_Error_Code_INTERNAL, "stela cpu compile: cannot load the compiled object %s: %s", what,
                      why ? why : "dlopen failed");
  } else {
    const char* sig = dlsym(p->dl, "stela_signature");
    p->entry = (stela_entry_fn)dlsym(p->dl, "stela_entry");
    const int* uses = dlsym(p->dl, "stela_rt_uses");
    p->rt_uses = uses != NULL ? *uses : 0;
    const int* any_align = dlsym(p->dl, "stela_args_any_align");
    p->args_any_align = any_align != NULL ? *any_align : 0;
    p->optimized = dlsym(p->dl, "stela_optimized_program");
    if (sig == NULL || p->entry == NULL)
      err = stela_error(PJRT_Error_Code_INTERNAL, "stela cpu compile: the compiled object %s does not define %s", what,
                        sig == NULL ? "stela_signature" : "stela_entry");
    else if (want_sig != NULL && strcmp(sig, want_sig) != 0)
      err = stela_error(PJRT_Error_Code_INTERNAL, "stela cpu compile: the signature of %s is not its manifest's", what);
    else
      err = parse_signature(what, sig, p);
    const char* aliases = dlsym(p->dl, "stela_aliases");
    if (err == NULL && aliases != NULL) err = parse_aliases(what, aliases, p);
  }
  free(why);
  if (err == NULL) {
    p->name = module_name(code, code_size);
    if (p->name == NULL) err = stela_oom();
    else p->name_len = strlen(p->name);
  }
  if (err != NULL) {
    program_free(p);
    return err;
  }
  *out = p;
  return NULL;
}

static void* load_blas(void* arg) {
  (void)arg;
  stela_rt_blas(NULL);
  return NULL;
}

/* A program from the cache that calls the GEMM: load the BLAS library (a
   10 to 25 ms dlopen) on a thread of the client, so that neither this
   compile nor the first execution waits for it. */
static void preload_blas(PJRT_Client* c, const stela_program* p) {
  if (!(p->rt_uses & STELA_RT_USES_GEMM) || stela_rt_blas_loaded()) return;
  pthread_mutex_lock(&c->mu);
  if (!c->blas_loader_started && !c->destroyed) {
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    c->blas_loader_started = pthread_create(&c->blas_loader, NULL, load_blas, NULL) == 0;
    pthread_sigmask(SIG_SETMASK, &old, NULL);
  }
  pthread_mutex_unlock(&c->mu);
}

/* Compiles (or finds in the cache) the program and loads it. */
static PJRT_Error* build(PJRT_Client* c, const char* code, size_t code_size, const char* opts, size_t opts_size,
                         stela_program** out) {
  char* worker = NULL;
  PJRT_Error* err = find_worker(c, &worker);
  if (err != NULL) return err;
  char key[65];
  stela_cache cache;
  if ((err = cache_key(worker, c->worker_id, code, code_size, opts, opts_size, key)) != NULL ||
      (err = stela_cache_open(c->cache_dir, &cache)) != NULL) {
    free(worker);
    return err;
  }
  unsigned char* data = NULL;
  size_t n = 0;
  char* sig = NULL;
  int fd = -1;
  if (cache.root != NULL && stela_cache_get(&cache, key, &data, &n, &sig, &fd)) {
    char* what = stela_asprintf("%s/%s.so", cache.objects, key);
    err = load_program(data, n, fd, what ? what : key, key, sig, code, code_size, out);
    free(what);
    free(data);
    free(sig);
    close(fd);
    if (err == NULL) {
      preload_blas(c, *out);
      stela_cache_close(&cache);
      free(worker);
      return NULL;
    }
    /* Verified, yet it does not load: drop it and compile again. */
    stela_cache_drop(&cache, key, err->msg);
    stela_error_free(err);
  }

  char* dir = NULL;
  if ((err = stela_compile_dir(&cache, &dir)) != NULL) {
    stela_cache_close(&cache);
    free(worker);
    return err;
  }
  char* prog = stela_asprintf("%s/program.mlir", dir);
  char* optf = stela_asprintf("%s/options.pb", dir);
  char* outf = stela_asprintf("%s/out.so", dir);
  if (prog == NULL || optf == NULL || outf == NULL) {
    err = stela_oom();
  } else if (!write_file(prog, code, code_size) || !write_file(optf, opts, opts_size)) {
    err = stela_error(PJRT_Error_Code_INTERNAL, FN ": cannot write the program to %s: %s", dir, strerror(errno));
  } else if ((err = run_worker(worker, prog, optf, outf, dir, c->compile_timeout_ms)) == NULL &&
             (err = stela_read_file(outf, &data, &n, &fd)) == NULL) {
    err = load_program(data, n, fd, outf, key, NULL, code, code_size, out);
    if (err == NULL && cache.root != NULL) {
      stela_cache_put(&cache, key, data, n, dlsym((*out)->dl, "stela_signature"));
      stela_cache_trim(&cache, key);
    }
    free(data);
    close(fd);
  }
  /* Everything the worker and its tools wrote, killed or not; a loaded
     object is a memfd of its own. */
  stela_remove_tree(dir);
  free(prog);
  free(optf);
  free(outf);
  free(dir);
  stela_cache_close(&cache);
  free(worker);
  return err;
}

PJRT_Error* stela_Client_Compile(PJRT_Client_Compile_Args* args) {
  STELA_CHECK_ARGS(PJRT_Client_Compile_Args, args, executable);
  PJRT_Client* c = args->client;
  const PJRT_Program* prog = args->program;
  if (c == NULL) return stela_error(PJRT_Error_Code_INVALID_ARGUMENT, FN ": client is NULL");
  if (prog == NULL) return stela_error(PJRT_Error_Code_INVALID_ARGUMENT, FN ": program is NULL");
  if (!stela_name_is(prog->format, prog->format_size, "mlir"))
    return stela_error(PJRT_Error_Code_UNIMPLEMENTED,
                       FN ": program format \"%.*s\" is not supported: the Stela CPU plugin compiles StableHLO text "
                       "(format \"mlir\")",
                       prog->format ? (int)prog->format_size : 0, prog->format ? prog->format : "");
  if (prog->code == NULL || prog->code_size == 0)
    return stela_error(PJRT_Error_Code_INVALID_ARGUMENT, FN ": the program is empty");
  if (args->compile_options == NULL && args->compile_options_size > 0)
    return stela_error(PJRT_Error_Code_INVALID_ARGUMENT, FN ": compile_options is NULL");

  compile_options o;
  int rc = parse_options(args->compile_options, args->compile_options_size, &o);
  if (rc != 0) {
    free_options(&o);
    return rc == -2 ? stela_oom()
                    : stela_error(PJRT_Error_Code_INVALID_ARGUMENT,
                                  FN ": compile_options is not a valid serialized xla.CompileOptionsProto");
  }
  bool portable;
  size_t R = 1, P = 1;
  int* assignment = NULL;
  PJRT_Error* err = place(c, &o, &portable, &R, &P, &assignment);
  free_options(&o);
  if (err != NULL) return err;

  stela_program* p = NULL;
  err = build(c, prog->code, prog->code_size, args->compile_options ? args->compile_options : "",
              args->compile_options_size, &p);
  if (err == NULL) err = stela_loaded_executable_new(c, p, portable, R, P, assignment, &args->executable);
  free(assignment);
  return err;
}
