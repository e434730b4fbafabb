/*
 * buffer.c: PJRT_Buffer. A buffer is dense, row-major, 64-byte aligned
 * host memory (a stela_storage) plus its element type, dimensions and
 * device. Every transfer copies (which satisfies every host buffer
 * semantics), so every transfer event is complete when returned.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "internal.h"

/* ---- Element types ---- */

static const char* const type_names[] = {
    "INVALID", "PRED",   "S8",       "S16",           "S32",        "S64",        "U8",     "U16",
    "U32",     "U64",    "F16",      "F32",           "F64",        "BF16",       "C64",    "C128",
    "F8E5M2",  "F8E4M3FN", "F8E4M3B11FNUZ", "F8E5M2FNUZ", "F8E4M3FNUZ", "S4",     "U4",     "TOKEN",
    "S2",      "U2",     "F8E4M3",   "F8E3M4",        "F8E8M0FNU",  "F4E2M1FN",
};

const char* stela_type_name(PJRT_Buffer_Type t) {
  if ((unsigned)t < sizeof(type_names) / sizeof(type_names[0])) return type_names[t];
  return "unknown";
}

size_t stela_type_size(PJRT_Buffer_Type t) {
  switch (t) {
    case PJRT_Buffer_Type_PRED:
    case PJRT_Buffer_Type_S8:
    case PJRT_Buffer_Type_U8:
    case PJRT_Buffer_Type_F8E5M2:
    case PJRT_Buffer_Type_F8E4M3FN:
    case PJRT_Buffer_Type_F8E4M3B11FNUZ:
    case PJRT_Buffer_Type_F8E5M2FNUZ:
    case PJRT_Buffer_Type_F8E4M3FNUZ:
    case PJRT_Buffer_Type_F8E4M3:
    case PJRT_Buffer_Type_F8E3M4:
    case PJRT_Buffer_Type_F8E8M0FNU:
    /* Sub-byte types: one element per byte, the value in the low bits
       and the upper bits zero, as XLA's host literals and ml_dtypes hold
       them (S4 -1 is 0x0F); programs ignore the upper bits of inputs. */
    case PJRT_Buffer_Type_S4:
    case PJRT_Buffer_Type_U4:
    case PJRT_Buffer_Type_S2:
    case PJRT_Buffer_Type_U2:
    case PJRT_Buffer_Type_F4E2M1FN:
      return 1;
    case PJRT_Buffer_Type_S16:
    case PJRT_Buffer_Type_U16:
    case PJRT_Buffer_Type_F16:
    case PJRT_Buffer_Type_BF16:
      return 2;
    case PJRT_Buffer_Type_S32:
    case PJRT_Buffer_Type_U32:
    case PJRT_Buffer_Type_F32:
      return 4;
    case PJRT_Buffer_Type_S64:
    case PJRT_Buffer_Type_U64:
    case PJRT_Buffer_Type_F64:
    case PJRT_Buffer_Type_C64:
      return 8;
    case PJRT_Buffer_Type_C128:
      return 16;
    default:
      return 0;
  }
}

PJRT_Error* stela_check_type(const char* fn, PJRT_Buffer_Type t) {
  if (stela_type_size(t) > 0) return NULL;
  switch (t) {
    case PJRT_Buffer_Type_TOKEN:
      return stela_error(PJRT_Error_Code_UNIMPLEMENTED,
                         "%s: element type TOKEN has no data; the Stela CPU plugin has no token buffers", fn);
    case PJRT_Buffer_Type_INVALID:
      return stela_error(PJRT_Error_Code_INVALID_ARGUMENT, "%s: element type is INVALID (0)", fn);
    default:
      return stela_error(PJRT_Error_Code_INVALID_ARGUMENT, "%s: unknown element type %d", fn, (int)t);
  }
}

PJRT_Error* stela_check_shape(const char* fn, const char* what, const int64_t* dims, size_t rank, size_t esize,
                              size_t* nbytes) {
  if (rank > STELA_MAX_RANK)
    return stela_error(PJRT_Error_Code_INVALID_ARGUMENT, "%s: %s has rank %zu, more than %d", fn, what, rank,
                       STELA_MAX_RANK);
  if (rank > 0 && dims == NULL)
    return stela_error(PJRT_Error_Code_INVALID_ARGUMENT, "%s: %s has %zu dimensions but dims is NULL", fn, what, rank);
  size_t n = esize;
  bool empty = false;
  for (size_t i = 0; i < rank; i++) {
    if (dims[i] < 0)
      return stela_error(PJRT_Error_Code_INVALID_ARGUMENT, "%s: %s dimension %zu is %lld", fn, what, i,
                         (long long)dims[i]);
    empty = empty || dims[i] == 0;
  }
  if (empty) {
    /* No elements, whatever the other dimensions are (as the Go client's
       numElements counts them): their product need not fit. */
    *nbytes = 0;
    return NULL;
  }
  for (size_t i = 0; i < rank; i++) {
    if (__builtin_mul_overflow(n, (size_t)dims[i], &n) || n > (size_t)INT64_MAX)
      return stela_error(PJRT_Error_Code_INVALID_ARGUMENT, "%s: %s is too large to address", fn, what);
  }
  *nbytes = n;
  return NULL;
}

/* ---- Storage ---- */

void* stela_aligned_alloc(size_t size) {
  size_t n = (size + STELA_ALIGN - 1) & ~(size_t)(STELA_ALIGN - 1);
  if (n < size) return NULL;
  if (n == 0) n = STELA_ALIGN; /* distinct, non-NULL pointers even for empty arrays */
  void* p = NULL;
  if (posix_memalign(&p, STELA_ALIGN, n) != 0) return NULL;
  return p;
}

/* ---- A cache of freed buffer memory ----

   The first write to freshly mapped pages is slow (about 15 us a page on
   some virtual machines), and glibc maps and unmaps every block above its
   mmap threshold: an executable's results, allocated on every execution,
   would fault all their pages in every time. So blocks of CACHE_MIN bytes
   or more go, when freed, into this cache (at most CACHE_MAX bytes, the
   oldest freed first when full) and a new buffer of the same page-rounded
   size takes one back. The cache is emptied when the last client goes. */

#define CACHE_MIN ((size_t)64 << 10)
#define CACHE_MAX ((size_t)512 << 20)
#define PAGE ((size_t)4096)

typedef struct cached_block {
  struct cached_block *prev, *next; /* newest first */
  size_t size;
} cached_block;

static struct {
  pthread_mutex_t mu;
  cached_block *head, *tail;
  size_t bytes;
} cache __attribute__((aligned(64))) = {.mu = PTHREAD_MUTEX_INITIALIZER};

static size_t cache_size(size_t size) { return (size + PAGE - 1) & ~(PAGE - 1); }

static void cache_unlink(cached_block* b) {
  if (b->prev != NULL)
    b->prev->next = b->next;
  else
    cache.head = b->next;
  if (b->next != NULL)
    b->next->prev = b->prev;
  else
    cache.tail = b->prev;
  cache.bytes -= b->size;
}

/* ---- Big blocks ----

   A block of HUGE_BYTES or more (a model's weight, a big activation) is
   mapped on its own, aligned to 2 MiB and advised to be transparent huge
   pages (MADV_HUGEPAGE) before its first write, so that the kernel backs
   it with 2 MiB pages where it has them free. A decode step reads every
   weight once: with 4 KiB pages a read stream crosses a page (a TLB miss,
   and the hardware prefetcher's stop) every 64 lines; on 2 MiB pages two
   threads' sequential reads measured 0.63-0.65 of a copy's rate on huge
   pages against 0.46-0.52 on 4 KiB pages (interleaved, on this project's
   2-vCPU Xeon), and GPT-2 small's batch-1 decode step (docs/performance.md)
   got faster by as much. $STELA_CPU_HUGEPAGES=off (read at each mapping)
   leaves the advice out. Smaller blocks come from posix_memalign. The
   block's size n is page-rounded (cache_size) and given back to
   big_free. */

#define HUGE_BYTES ((size_t)2 << 20)

/* map_huge_aligned maps n bytes at a 2 MiB boundary (a huge page's),
   over-mapping by 2 MiB and unmapping the ends; NULL when it cannot.
   With advise, the range gets MADV_HUGEPAGE (advice: fine if refused). */
static char* map_huge_aligned(size_t n, bool advise) {
  size_t span = n + HUGE_BYTES;
  if (span < n) return NULL;
  char* m = mmap(NULL, span, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (m == MAP_FAILED) return NULL;
  uintptr_t a = ((uintptr_t)m + HUGE_BYTES - 1) & ~(uintptr_t)(HUGE_BYTES - 1);
  size_t head = a - (uintptr_t)m, tail = span - head - n;
  if (head > 0) munmap(m, head);
  if (tail > 0) munmap((char*)a + n, tail);
  if (advise) madvise((void*)a, n, MADV_HUGEPAGE);
  return (char*)a;
}

static void* big_alloc(size_t n) {
  if (n < HUGE_BYTES) return stela_aligned_alloc(n);
  const char* env = getenv("STELA_CPU_HUGEPAGES");
  return map_huge_aligned(n, env == NULL || strcmp(env, "off") != 0);
}

static void big_free(void* p, size_t n) {
  if (n < HUGE_BYTES)
    free(p);
  else
    munmap(p, n);
}

/* A cached block of size bytes (page-rounded), or NULL. */
static void* cache_take(size_t size) {
  void* p = NULL;
  pthread_mutex_lock(&cache.mu);
  for (cached_block* b = cache.head; b != NULL; b = b->next)
    if (b->size == size) {
      cache_unlink(b);
      p = b;
      break;
    }
  pthread_mutex_unlock(&cache.mu);
  return p;
}

/* Keeps block p of size bytes (page-rounded); frees it, or older blocks,
   when the cache would grow past CACHE_MAX. */
static void cache_put(void* p, size_t size) {
  if (size > CACHE_MAX) {
    big_free(p, size);
    return;
  }
  cached_block* drop = NULL;
  pthread_mutex_lock(&cache.mu);
  while (cache.bytes + size > CACHE_MAX && cache.tail != NULL) {
    cached_block* old = cache.tail;
    cache_unlink(old);
    old->next = drop;
    drop = old;
  }
  cached_block* b = p;
  b->size = size;
  b->prev = NULL;
  b->next = cache.head;
  if (cache.head != NULL)
    cache.head->prev = b;
  else
    cache.tail = b;
  cache.head = b;
  cache.bytes += size;
  pthread_mutex_unlock(&cache.mu);
  while (drop != NULL) {
    cached_block* next = drop->next;
    big_free(drop, drop->size);
    drop = next;
  }
}

/* ---- Small blocks ----

   Eager dispatch allocates and frees a small result per op; posix_memalign
   with 64-byte alignment and its frees were a fifth of an eager op's cost
   (glibc splits and consolidates chunks for each). Blocks below SMALL_MAX
   bytes are kept on per-size-class free lists (64-byte classes, at most
   SMALL_KEEP bytes in all) and reused. The PJRT_Buffer and stela_storage
   structs come from these lists too: every block of class c is c * 64
   bytes, so only blocks from small_take may be put back.

   The bound is in bytes, not blocks: Go frees an eager loop's results in
   batches, one garbage collection's worth (thousands) at a time, and a
   list shorter than a batch sends the rest back to malloc. */

#define SMALL_MAX ((size_t)4096)
#define SMALL_KEEP ((size_t)32 << 20)
#define NCLASS (SMALL_MAX / STELA_ALIGN + 1)

/* The lists are arrays of pointers, not links through the blocks: a block
   freed on one core and taken on another is then not read when it is
   taken (a cache miss per block, under the lock, when the lists were
   linked). */
typedef struct block_stack {
  void** v;
  size_t n, cap;
} block_stack;

static struct {
  pthread_mutex_t mu;
  block_stack cls[NCLASS];
  size_t bytes;
} smalls __attribute__((aligned(64))) = {.mu = PTHREAD_MUTEX_INITIALIZER};

static size_t small_class(size_t size) { return size == 0 ? 1 : (size + STELA_ALIGN - 1) / STELA_ALIGN; }

/* Each thread keeps a few blocks per class of its own, moved to and from
   the shared lists LOCAL_MOVE at a time: eager dispatch allocates on the
   Go thread that dispatches and frees on the one that runs cleanups, and
   a shared lock taken for every block was a tenth of an op. */
#define LOCAL_CAP 64
#define LOCAL_MOVE 32

typedef struct local_cache {
  void* v[NCLASS][LOCAL_CAP];
  int n[NCLASS];
  /* Storages this thread made minus those it freed (stela_live_add),
     and their bytes: only this thread writes them, so they need no
     locked instruction. */
  atomic_long live, live_bytes;
  struct local_cache *prev, *next; /* in locals */
} local_cache;

/* Every thread's cache, for stela_live_count; and the live count of
   threads that exited or had no cache. */
static struct {
  pthread_mutex_t mu;
  local_cache* head;
} locals = {.mu = PTHREAD_MUTEX_INITIALIZER};
static atomic_long live_rest, live_rest_bytes;

static __thread local_cache* tls_local;
static pthread_key_t local_key;
static pthread_once_t local_once = PTHREAD_ONCE_INIT;

/* The most blocks of class c a thread keeps: LOCAL_CAP, but no more than
   32 KiB of them. */
static int local_max(size_t c) {
  size_t n = ((size_t)32 << 10) / (c * STELA_ALIGN);
  return n >= LOCAL_CAP ? LOCAL_CAP : n < 2 ? 2 : (int)n;
}

/* ---- Small block arenas ----

   New small blocks are carved from 2 MiB arenas, aligned to 2 MiB and
   advised to be transparent huge pages (MADV_HUGEPAGE). Eager dispatch
   makes a result block per op and frees it a garbage collection later:
   the blocks it cycles through span megabytes, and with the 4 KiB pages
   of malloc'ed blocks each new result and each free missed the TLB
   (glibc's malloc with huge pages, GLIBC_TUNABLES=glibc.malloc.hugetlb=1,
   cut an eager op's CPU time by a tenth). Arena memory is never
   unmapped: its blocks stay on the free lists (past SMALL_KEEP too);
   only blocks malloc'ed when an arena could not be mapped are freed. */

#define ARENA_BYTES HUGE_BYTES

static struct {
  pthread_mutex_t mu;
  char *next, *end;  /* the current arena's free part */
  uintptr_t* bases;  /* every arena's address */
  size_t n, cap;
} arenas = {.mu = PTHREAD_MUTEX_INITIALIZER};

/* Maps a new arena (under arenas.mu); NULL when it cannot. */
static char* arena_map(void) {
  if (arenas.n == arenas.cap) {
    size_t cap = arenas.cap ? 2 * arenas.cap : 16;
    uintptr_t* nb = realloc(arenas.bases, cap * sizeof(*nb));
    if (nb == NULL) return NULL;
    arenas.bases = nb;
    arenas.cap = cap;
  }
  char* a = map_huge_aligned(ARENA_BYTES, true);
  if (a == NULL) return NULL;
  arenas.bases[arenas.n++] = (uintptr_t)a;
  return a;
}

/* A new block of bytes (a multiple of STELA_ALIGN, at most SMALL_MAX). */
static void* small_new(size_t bytes) {
  pthread_mutex_lock(&arenas.mu);
  if ((size_t)(arenas.end - arenas.next) < bytes) {
    char* a = arena_map();
    if (a == NULL) {
      pthread_mutex_unlock(&arenas.mu);
      return stela_aligned_alloc(bytes);
    }
    arenas.next = a;
    arenas.end = a + ARENA_BYTES;
  }
  void* p = arenas.next;
  arenas.next += bytes;
  pthread_mutex_unlock(&arenas.mu);
  return p;
}

/* Whether block p was carved from an arena (and so must not be freed). */
static bool in_arena(const void* p) {
  uintptr_t base = (uintptr_t)p & ~(uintptr_t)(ARENA_BYTES - 1);
  pthread_mutex_lock(&arenas.mu);
  bool found = false;
  for (size_t i = 0; i < arenas.n && !found; i++) found = arenas.bases[i] == base;
  pthread_mutex_unlock(&arenas.mu);
  return found;
}

/* Puts the n blocks v of class c on the shared list, freeing those past
   SMALL_KEEP that are not arena blocks. */
static void small_put_shared(void** v, size_t n, size_t c) {
  size_t bytes = c * STELA_ALIGN, kept = 0;
  pthread_mutex_lock(&smalls.mu);
  block_stack* st = &smalls.cls[c];
  while (kept < n && smalls.bytes + bytes <= SMALL_KEEP) {
    if (st->n == st->cap) {
      size_t cap = st->cap ? 2 * st->cap : 256;
      void** nv = realloc(st->v, cap * sizeof(void*));
      if (nv == NULL) break;
      st->v = nv;
      st->cap = cap;
    }
    size_t k = n - kept;
    if (k > st->cap - st->n) k = st->cap - st->n;
    if (k > (SMALL_KEEP - smalls.bytes) / bytes) k = (SMALL_KEEP - smalls.bytes) / bytes;
    memcpy(st->v + st->n, v + kept, k * sizeof(void*));
    st->n += k;
    smalls.bytes += k * bytes;
    kept += k;
  }
  /* Past the bound (or out of memory for the list): arena blocks are
     kept all the same, the others freed. */
  size_t nfree = 0;
  for (size_t i = kept; i < n; i++) {
    bool keep = in_arena(v[i]);
    if (keep && st->n == st->cap) {
      size_t cap = st->cap ? 2 * st->cap : 256;
      void** nv = realloc(st->v, cap * sizeof(void*));
      if (nv != NULL) {
        st->v = nv;
        st->cap = cap;
      }
    }
    if (keep && st->n < st->cap) {
      st->v[st->n++] = v[i];
      smalls.bytes += bytes;
    } else if (!keep) {
      v[nfree++] = v[i];
    } /* else an arena block with no room anywhere: out of memory, lost */
  }
  pthread_mutex_unlock(&smalls.mu);
  for (size_t i = 0; i < nfree; i++) free(v[i]);
}

/* A thread that exits gives its blocks back. */
static void local_exit(void* arg) {
  local_cache* lc = arg;
  for (size_t c = 0; c < NCLASS; c++) small_put_shared(lc->v[c], (size_t)lc->n[c], c);
  pthread_mutex_lock(&locals.mu);
  atomic_fetch_add(&live_rest, atomic_load_explicit(&lc->live, memory_order_relaxed));
  atomic_fetch_add(&live_rest_bytes, atomic_load_explicit(&lc->live_bytes, memory_order_relaxed));
  if (lc->prev != NULL)
    lc->prev->next = lc->next;
  else
    locals.head = lc->next;
  if (lc->next != NULL) lc->next->prev = lc->prev;
  pthread_mutex_unlock(&locals.mu);
  free(lc);
}

static void local_init(void) { pthread_key_create(&local_key, local_exit); }

/* This thread's cache, or NULL if one cannot be had (no memory). */
static local_cache* local(void) {
  local_cache* lc = tls_local;
  if (lc != NULL) return lc;
  pthread_once(&local_once, local_init);
  lc = calloc(1, sizeof(*lc));
  if (lc == NULL) return NULL;
  if (pthread_setspecific(local_key, lc) != 0) {
    free(lc);
    return NULL;
  }
  pthread_mutex_lock(&locals.mu);
  lc->next = locals.head;
  if (lc->next != NULL) lc->next->prev = lc;
  locals.head = lc;
  pthread_mutex_unlock(&locals.mu);
  tls_local = lc;
  return lc;
}

/* Counts n storages made (or, negative, freed) on this thread. The count
   was one atomic shared by all threads: its locked add waited for the
   stores to the new result's (uncached) block before it, on every op. */
static void stela_live_add(long n, long bytes) {
  local_cache* lc = local();
  if (lc == NULL) {
    atomic_fetch_add(&live_rest, n);
    atomic_fetch_add(&live_rest_bytes, bytes);
    return;
  }
  atomic_store_explicit(&lc->live, atomic_load_explicit(&lc->live, memory_order_relaxed) + n, memory_order_relaxed);
  atomic_store_explicit(&lc->live_bytes, atomic_load_explicit(&lc->live_bytes, memory_order_relaxed) + bytes,
                        memory_order_relaxed);
}

long long stela_live_bytes(void) {
  pthread_mutex_lock(&locals.mu);
  long long n = atomic_load(&live_rest_bytes);
  for (local_cache* lc = locals.head; lc != NULL; lc = lc->next) n += atomic_load(&lc->live_bytes);
  pthread_mutex_unlock(&locals.mu);
  return n;
}

long long stela_live_count(void) {
  pthread_mutex_lock(&locals.mu);
  long long n = atomic_load(&live_rest);
  for (local_cache* lc = locals.head; lc != NULL; lc = lc->next) n += atomic_load(&lc->live);
  pthread_mutex_unlock(&locals.mu);
  return n;
}

static void* small_take(size_t size) {
  size_t c = small_class(size);
  local_cache* lc = local();
  if (lc != NULL && lc->n[c] > 0) {
    void* b = lc->v[c][--lc->n[c]];
    if (lc->n[c] > 0) {
      /* The next block of this class, for the next result (an eager op
         or so from now): blocks come back a garbage collection after
         they were made, out of cache, and writing the new result's
         header stalled on each line. Every line, up to eight: a small
         result's data is its block's fifth line, which the program
         writes, and the first locked instruction after that (the next
         client or storage reference) waited for it. */
      char* next = lc->v[c][lc->n[c] - 1];
      for (size_t o = 0; o < c * STELA_ALIGN && o < 8 * STELA_ALIGN; o += STELA_ALIGN) __builtin_prefetch(next + o, 1);
    }
    return b;
  }
  void* b = NULL;
  pthread_mutex_lock(&smalls.mu);
  block_stack* st = &smalls.cls[c];
  if (st->n > 0) {
    /* One to return, and up to LOCAL_MOVE - 1 more for later, never more
       than this class's local bound. */
    size_t k = 1;
    if (lc != NULL) k = local_max(c) < LOCAL_MOVE ? (size_t)local_max(c) : LOCAL_MOVE;
    if (k > st->n) k = st->n;
    st->n -= k;
    smalls.bytes -= k * c * STELA_ALIGN;
    b = st->v[st->n + k - 1];
    if (lc != NULL) {
      memcpy(lc->v[c], st->v + st->n, (k - 1) * sizeof(void*));
      lc->n[c] = (int)(k - 1);
    }
  }
  pthread_mutex_unlock(&smalls.mu);
  return b != NULL ? b : small_new(c * STELA_ALIGN);
}

static void small_put(void* p, size_t size) {
  size_t c = small_class(size);
  local_cache* lc = local();
  if (lc == NULL) {
    small_put_shared(&p, 1, c);
    return;
  }
  int max = local_max(c);
  if (lc->n[c] >= max) {
    /* Full: the older blocks go to the shared list, half the bound
       stays. */
    int k = lc->n[c] - max / 2;
    small_put_shared(lc->v[c], (size_t)k, c);
    memmove(lc->v[c], lc->v[c] + k, (size_t)(lc->n[c] - k) * sizeof(void*));
    lc->n[c] -= k;
  }
  lc->v[c][lc->n[c]++] = p;
}

static void small_drain(void) {
  /* Other threads keep what their caches hold (a few KiB each). Arena
     blocks stay on the shared lists: arenas are never unmapped. */
  local_cache* lc = tls_local;
  for (size_t c = 0; lc != NULL && c < NCLASS; c++) {
    size_t k = 0;
    for (int i = 0; i < lc->n[c]; i++) {
      if (in_arena(lc->v[c][i]))
        lc->v[c][k++] = lc->v[c][i];
      else
        free(lc->v[c][i]);
    }
    small_put_shared(lc->v[c], k, c);
    lc->n[c] = 0;
  }
  pthread_mutex_lock(&smalls.mu);
  size_t kept_bytes = 0;
  for (size_t c = 0; c < NCLASS; c++) {
    block_stack* st = &smalls.cls[c];
    size_t k = 0;
    for (size_t i = 0; i < st->n; i++) {
      if (in_arena(st->v[i]))
        st->v[k++] = st->v[i];
      else
        free(st->v[i]);
    }
    st->n = k;
    kept_bytes += k * c * STELA_ALIGN;
    if (k == 0) {
      free(st->v);
      st->v = NULL;
      st->cap = 0;
    }
  }
  smalls.bytes = kept_bytes;
  pthread_mutex_unlock(&smalls.mu);
}

/* A zeroed small block of size bytes (size <= SMALL_MAX), or NULL. */
static void* small_zalloc(size_t size) {
  void* p = small_take(size);
  if (p != NULL) memset(p, 0, size);
  return p;
}

void stela_buffer_cache_drain(void) {
  small_drain();
  pthread_mutex_lock(&cache.mu);
  cached_block* b = cache.head;
  cache.head = cache.tail = NULL;
  cache.bytes = 0;
  pthread_mutex_unlock(&cache.mu);
  while (b != NULL) {
    cached_block* next = b->next;
    big_free(b, b->size);
    b = next;
  }
}

stela_storage* stela_storage_new(size_t size) {
  stela_storage* s;
  if (size <= SMALL_MAX - STELA_ALIGN) {
    /* Small: the storage and its data in one block, the data one
       alignment unit after the header (one block to take and to touch
       per eager result instead of two). */
    s = small_take(STELA_ALIGN + size);
    if (s == NULL) return NULL;
    memset(s, 0, sizeof(*s));
    s->data = (char*)s + STELA_ALIGN;
    s->inline_data = true;
  } else {
    s = small_zalloc(sizeof(*s));
    if (s == NULL) return NULL;
    if (size >= CACHE_MIN) {
      size_t n = cache_size(size);
      if (n >= size) {
        s->data = cache_take(n);
        if (s->data == NULL) s->data = big_alloc(n);
      } else {
        s->data = stela_aligned_alloc(size);
      }
    } else if (size <= SMALL_MAX) {
      s->data = small_take(size);
    } else {
      s->data = stela_aligned_alloc(size);
    }
    if (s->data == NULL) {
      small_put(s, sizeof(*s));
      return NULL;
    }
  }
  atomic_init(&s->refs, 1);
  s->size = size;
  s->owned = true;
  stela_live_add(1, (long)size);
  return s;
}

/* ---- Result blocks ----

   An eager op's result is made and, much later (when a garbage collection
   finds it dead), destroyed: by then its memory has left the cache, and
   Destroy's reads of the buffer struct and its storage header were cache
   misses in a row, each behind the last (about a third of an eager op).
   A small result's buffer struct, storage header, dimensions and data are
   one block, so the lines Destroy touches are the block's first three,
   which stela_destroy_buffers prefetches before destroying. */

#define RESULT_BUFFER ((size_t)2 * STELA_ALIGN) /* the buffer struct's room */
_Static_assert(sizeof(PJRT_Buffer) <= RESULT_BUFFER, "a buffer fits its room in a result block");

static size_t result_data_offset(size_t rank) {
  size_t n = RESULT_BUFFER + sizeof(stela_storage) + 2 * rank * sizeof(int64_t);
  return (n + STELA_ALIGN - 1) & ~(STELA_ALIGN - 1);
}

stela_storage* stela_storage_new_result(size_t size, size_t rank) {
  if (rank > SMALL_MAX || size > SMALL_MAX || result_data_offset(rank) + size > SMALL_MAX)
    return stela_storage_new(size);
  size_t off = result_data_offset(rank);
  char* block = small_take(off + size);
  if (block == NULL) return NULL;
  /* The buffer struct, header and dimensions zeroed; the data is the
     program's to write. */
  memset(block, 0, off);
  stela_storage* s = (stela_storage*)(block + RESULT_BUFFER);
  s->data = block + off;
  s->size = size;
  s->owned = true;
  s->in_result = true;
  s->block_size = (uint32_t)(off + size);
  atomic_init(&s->refs, 1);
  atomic_init(&s->holds, 1);
  stela_live_add(1, (long)size);
  return s;
}

/* Drops one hold on a result block: the last frees it. */
static void result_unhold(stela_storage* s) {
  if (atomic_fetch_sub(&s->holds, 1) == 1) small_put((char*)s - RESULT_BUFFER, s->block_size);
}

void stela_storage_retain(stela_storage* s) { atomic_fetch_add(&s->refs, 1); }

void stela_storage_release(stela_storage* s) {
  if (s == NULL || atomic_fetch_sub(&s->refs, 1) != 1) return;
  if (s->in_result) {
    stela_live_add(-1, -(long)s->size);
    result_unhold(s);
    return;
  }
  if (s->inline_data) {
    stela_live_add(-1, -(long)s->size);
    small_put(s, STELA_ALIGN + s->size);
    return;
  }
  if (s->owned) {
    if (s->size >= CACHE_MIN && cache_size(s->size) >= s->size)
      cache_put(s->data, cache_size(s->size));
    else if (s->size <= SMALL_MAX)
      small_put(s->data, s->size);
    else
      free(s->data);
    stela_live_add(-1, -(long)s->size);
  } else if (s->on_delete != NULL)
    s->on_delete(s->data, s->on_delete_arg);
  small_put(s, sizeof(*s));
}

/* ---- Strided copies ---- */

static void dense_strides(const int64_t* dims, size_t rank, size_t esize, int64_t* strides) {
  int64_t s = (int64_t)esize;
  for (size_t i = rank; i-- > 0;) {
    strides[i] = s;
    s *= dims[i];
  }
}

/* Copies the array dims (element size esize) from src, laid out with byte
   strides ss, to dst, laid out with ds. Strides may be negative or zero. */
static void copy_strided(char* dst, const int64_t* ds, const char* src, const int64_t* ss, const int64_t* dims,
                         size_t rank, size_t esize) {
  if (rank == 0) {
    memcpy(dst, src, esize);
    return;
  }
  int64_t n = dims[0];
  if (rank == 1) {
    if (ds[0] == (int64_t)esize && ss[0] == (int64_t)esize) {
      memcpy(dst, src, (size_t)n * esize);
      return;
    }
    for (int64_t i = 0; i < n; i++) memcpy(dst + i * ds[0], src + i * ss[0], esize);
    return;
  }
  for (int64_t i = 0; i < n; i++) copy_strided(dst + i * ds[0], ds + 1, src + i * ss[0], ss + 1, dims + 1, rank - 1, esize);
}

/* The byte range [*lo, *hi) that an array of dims with byte strides
   addresses, relative to element [0, ..., 0]: every product and sum is
   checked, since a wrapped one would pass a caller's bounds check and send
   the copy anywhere in memory (issue 20: strides {1<<62, 4} segfaulted).
   An empty array addresses nothing (lo = hi = 0). */
static PJRT_Error* stride_extent(const char* fn, const char* what, const int64_t* dims, const int64_t* strides,
                                 size_t rank, size_t esize, int64_t* lo, int64_t* hi) {
  *lo = 0;
  *hi = (int64_t)esize;
  for (size_t i = 0; i < rank; i++)
    if (dims[i] == 0) {
      *hi = 0;
      return NULL;
    }
  for (size_t i = 0; i < rank; i++) {
    int64_t ext;
    bool bad = __builtin_mul_overflow(dims[i] - 1, strides[i], &ext);
    if (!bad) bad = strides[i] >= 0 ? __builtin_add_overflow(*hi, ext, hi) : __builtin_add_overflow(*lo, ext, lo);
    if (bad)
      return stela_error(PJRT_Error_Code_INVALID_ARGUMENT,
                         "%s: %s: byte stride %lld of dimension %zu (size %lld) makes the addressed byte range "
                         "overflow a 64-bit integer",
                         fn, what, (long long)strides[i], i, (long long)dims[i]);
  }
  int64_t span;
  if (__builtin_sub_overflow(*hi, *lo, &span))
    return stela_error(PJRT_Error_Code_INVALID_ARGUMENT,
                       "%s: %s: the byte strides address a range that overflows a 64-bit integer", fn, what);
  return NULL;
}

/* NULL if [p+lo, p+hi) does not wrap around the address space. */
static PJRT_Error* check_address_range(const char* fn, const char* what, const void* p, int64_t lo, int64_t hi) {
  uintptr_t a = (uintptr_t)p;
  if ((lo < 0 && a < (uintptr_t)0 - (uintptr_t)lo) || (hi > 0 && UINTPTR_MAX - a < (uintptr_t)hi))
    return stela_error(PJRT_Error_Code_INVALID_ARGUMENT,
                       "%s: %s: the byte strides address [%lld, %lld) around %p, which wraps around the address space",
                       fn, what, (long long)lo, (long long)hi, p);
  return NULL;
}

static bool strides_equal(const int64_t* a, const int64_t* b, size_t rank) {
  for (size_t i = 0; i < rank; i++)
    if (a[i] != b[i]) return false;
  return true;
}

/* NULL if layout is NULL or dense row-major (Tiled, minor_to_major
   descending, no tiles), the only device layout this plugin has. */
static PJRT_Error* check_row_major(const char* fn, const PJRT_Buffer_MemoryLayout* layout, size_t rank) {
  if (layout == NULL) return NULL;
  if (layout->type == PJRT_Buffer_MemoryLayout_Type_Tiled) {
    const PJRT_Buffer_MemoryLayout_Tiled* t = &layout->tiled;
    bool ok = t->num_tiles == 0 && t->minor_to_major_size == rank && (rank == 0 || t->minor_to_major != NULL);
    for (size_t i = 0; ok && i < rank; i++) ok = t->minor_to_major[i] == (int64_t)(rank - 1 - i);
    if (ok) return NULL;
  }
  return stela_error(PJRT_Error_Code_UNIMPLEMENTED,
                     "%s: the Stela CPU plugin keeps buffers dense and row-major; pass no layout or a Tiled layout "
                     "with minor_to_major [rank-1, ..., 0] and no tiles",
                     fn);
}

/* ---- Buffers ---- */

PJRT_Error* stela_buffer_new(PJRT_Client* c, PJRT_Device* dev, PJRT_Buffer_Type type, const int64_t* dims,
                             size_t rank, stela_storage* s, PJRT_Buffer** out) {
  /* A fresh result block (one hold: its data's) takes the buffer in. */
  bool embedded = s != NULL && s->in_result && atomic_load_explicit(&s->holds, memory_order_relaxed) == 1 &&
                  (char*)(s + 1) + 2 * rank * sizeof(int64_t) <= (char*)s->data;
  PJRT_Buffer* b = embedded ? (PJRT_Buffer*)((char*)s - RESULT_BUFFER) : small_zalloc(sizeof(*b) + 2 * rank * sizeof(int64_t));
  /* The buffer's own hold on its block, taken before anything else can
     see the buffer: its data may outlive it (an execution holding it as
     an argument), and it may outlive its data (Delete). */
  if (embedded) atomic_store_explicit(&s->holds, 2, memory_order_relaxed);
  if (b == NULL) {
    stela_storage_release(s);
    return stela_oom();
  }
  b->client = c;
  b->device = dev;
  b->type = type;
  b->esize = (uint16_t)stela_type_size(type);
  b->embedded = embedded;
  b->rank = rank;
  b->dims = embedded ? (int64_t*)(s + 1) : (int64_t*)(b + 1);
  b->minor_to_major = b->dims + rank;
  b->nbytes = b->esize;
  for (size_t i = 0; i < rank; i++) {
    b->dims[i] = dims[i];
    b->minor_to_major[i] = (int64_t)(rank - 1 - i);
    b->nbytes *= (size_t)dims[i];
  }
  pthread_mutex_init(&b->mu, NULL);
  b->storage = s;
  pthread_mutex_lock(&c->mu);
  if (c->nlive == c->caplive) {
    size_t cap = c->caplive ? 2 * c->caplive : 64;
    PJRT_Buffer** nl = cap <= UINT32_MAX ? realloc(c->live, cap * sizeof(*nl)) : NULL;
    if (nl == NULL) {
      pthread_mutex_unlock(&c->mu);
      pthread_mutex_destroy(&b->mu);
      stela_storage_release(s);
      if (embedded)
        result_unhold(s); /* b goes with its block */
      else
        small_put(b, sizeof(*b) + 2 * rank * sizeof(int64_t));
      return stela_oom();
    }
    c->live = nl;
    c->caplive = cap;
  }
  /* The buffer's client reference, from the credit (the caller holds
     one, so the count is not zero here). */
  if (c->ref_credit == 0) {
    long k = c->destroyed ? 1 : 64;
    atomic_fetch_add(&c->refs, k);
    c->ref_credit = k;
  }
  c->ref_credit--;
  b->slot = (uint32_t)c->nlive;
  c->live[c->nlive++] = b;
  pthread_mutex_unlock(&c->mu);
  *out = b;
  return NULL;
}

stela_storage* stela_buffer_acquire(PJRT_Buffer* b) {
  pthread_mutex_lock(&b->mu);
  stela_storage* s = b->storage;
  if (s != NULL) stela_storage_retain(s);
  pthread_mutex_unlock(&b->mu);
  return s;
}

void stela_client_delete_buffers(PJRT_Client* c) {
  pthread_mutex_lock(&c->mu);
  size_t n = c->nlive;
  stela_storage** drop = calloc(2 * n + 1, sizeof(*drop));
  size_t k = 0;
  for (size_t i = 0; i < n; i++) {
    PJRT_Buffer* b = c->live[i];
    pthread_mutex_lock(&b->mu);
    stela_storage* s[2] = {b->storage, b->ext_storage};
    b->storage = NULL;
    b->ext_storage = NULL;
    b->ext_refs = 0;
    pthread_mutex_unlock(&b->mu);
    for (int i = 0; i < 2; i++) {
      if (s[i] == NULL) continue;
      if (drop != NULL)
        drop[k++] = s[i];
      else
        stela_storage_release(s[i]); /* out of memory: release under the lock */
    }
  }
  pthread_mutex_unlock(&c->mu);
  /* Released outside the lock: a view's on_delete callback may call back
     into the plugin. */
  for (size_t i = 0; i < k; i++) stela_storage_release(drop[i]);
  free(drop);
}

/* Drops a destroyed buffer's storages (s, e: taken from it) and gives its
   block back: its result block's hold, or the small-block lists. b is gone
   after this. */
static void buffer_free_block(PJRT_Buffer* b, stela_storage* s, stela_storage* e) {
  bool embedded = b->embedded;
  size_t size = sizeof(*b) + 2 * b->rank * sizeof(int64_t);
  stela_storage_release(s);
  stela_storage_release(e);
  pthread_mutex_destroy(&b->mu);
  if (embedded)
    result_unhold((stela_storage*)((char*)b + RESULT_BUFFER));
  else
    small_put(b, size);
}

static void buffer_free(PJRT_Buffer* b) {
  PJRT_Client* c = b->client;
  pthread_mutex_lock(&c->mu);
  PJRT_Buffer* last = c->live[--c->nlive];
  c->live[b->slot] = last;
  last->slot = b->slot;
  pthread_mutex_unlock(&c->mu);
  pthread_mutex_lock(&b->mu);
  stela_storage* s = b->storage;
  stela_storage* e = b->ext_storage;
  b->storage = NULL;
  b->ext_storage = NULL;
  pthread_mutex_unlock(&b->mu);
  buffer_free_block(b, s, e);
  stela_client_release(c);
}

/* Destroys the n buffers of bufs (NULL entries skipped), as
   PJRT_Buffer_Destroy does each, in two passes: first every buffer leaves
   its client's live array, under one hold of the client's lock per run
   of buffers of the same client instead of one per buffer; then each
   drops its storage and its block. Destroy frees the struct, so no other
   thread may be using a buffer being destroyed: its own mutex is not
   taken. The buffers are a collection's dead ones, cold in cache: each is
   prefetched a few ahead of its turn in the first pass, and is still in
   cache in the second (a batch is at most a few dozen buffers). */
void stela_buffers_free(PJRT_Buffer* const* bufs, size_t n) {
  enum { AHEAD = 6 };
  for (size_t i = 0; i < n && i < AHEAD; i++)
    if (bufs[i] != NULL)
      for (int line = 0; line < 3; line++) __builtin_prefetch((const char*)bufs[i] + 64 * line, 1);
  PJRT_Client* held = NULL;
  for (size_t i = 0; i < n; i++) {
    if (i + AHEAD < n && bufs[i + AHEAD] != NULL)
      for (int line = 0; line < 3; line++) __builtin_prefetch((const char*)bufs[i + AHEAD] + 64 * line, 1);
    PJRT_Buffer* b = bufs[i];
    if (b == NULL) continue;
    PJRT_Client* c = b->client;
    if (c != held) {
      if (held != NULL) pthread_mutex_unlock(&held->mu);
      pthread_mutex_lock(&c->mu);
      held = c;
    }
    PJRT_Buffer* last = c->live[--c->nlive];
    c->live[b->slot] = last;
    last->slot = b->slot;
  }
  if (held != NULL) pthread_mutex_unlock(&held->mu);
  PJRT_Client* rc = NULL; /* client references to drop, rn of them */
  long rn = 0;
  for (size_t i = 0; i < n; i++) {
    PJRT_Buffer* b = bufs[i];
    if (b == NULL) continue;
    PJRT_Client* c = b->client;
    buffer_free_block(b, b->storage, b->ext_storage);
    if (c != rc) {
      if (rc != NULL) stela_client_release_n(rc, rn);
      rc = c;
      rn = 0;
    }
    rn++;
  }
  if (rc != NULL) stela_client_release_n(rc, rn);
}

/* Resolves the target of a transfer: memory wins over device (JAX passes
   memory only); neither means the client's first device. */
static PJRT_Error* target_device(const char* fn, PJRT_Client* c, PJRT_Device* dev, PJRT_Memory* mem,
                                 PJRT_Device** out) {
  if (mem != NULL) {
    if (!stela_client_owns_memory(c, mem))
      return stela_error(PJRT_Error_Code_INVALID_ARGUMENT, "%s: the memory does not belong to this client", fn);
    *out = mem->device;
    return NULL;
  }
  if (dev != NULL) {
    if (!stela_client_owns_device(c, dev))
      return stela_error(PJRT_Error_Code_INVALID_ARGUMENT, "%s: the device does not belong to this client", fn);
    *out = dev;
    return NULL;
  }
  *out = c->device_ptrs[0];
  return NULL;
}

static void normalize_pred(PJRT_Buffer_Type type, unsigned char* p, size_t n) {
  /* The compiled programs' ABI stores i1 as one byte, 0 or 1. */
  if (type != PJRT_Buffer_Type_PRED) return;
  for (size_t i = 0; i < n; i++) p[i] = p[i] != 0;
}

PJRT_Error* stela_Client_BufferFromHostBuffer(PJRT_Client_BufferFromHostBuffer_Args* args) {
  static const char fn[] = "PJRT_Client_BufferFromHostBuffer";
  STELA_CHECK_ARGS(PJRT_Client_BufferFromHostBuffer_Args, args, buffer);
  PJRT_Client* c = args->client;
  if (c == NULL) return stela_error(PJRT_Error_Code_INVALID_ARGUMENT, "%s: client is NULL", fn);
  PJRT_Error* err = stela_check_type(fn, args->type);
  if (err != NULL) return err;
  size_t esize = stela_type_size(args->type), rank = args->num_dims, nbytes;
  if ((err = stela_check_shape(fn, "the array", args->dims, rank, esize, &nbytes)) != NULL) return err;
  PJRT_Device* dev;
  if ((err = target_device(fn, c, args->device, args->memory, &dev)) != NULL) return err;
  if ((err = check_row_major(fn, args->device_layout, rank)) != NULL) return err;
  if (args->num_byte_strides != 0) {
    if (args->num_byte_strides != rank || args->byte_strides == NULL)
      return stela_error(PJRT_Error_Code_INVALID_ARGUMENT, "%s: %zu byte strides for an array of rank %zu", fn,
                         args->num_byte_strides, rank);
  }
  if (args->data == NULL && nbytes > 0)
    return stela_error(PJRT_Error_Code_INVALID_ARGUMENT, "%s: data is NULL for %zu bytes", fn, nbytes);
  if (args->num_byte_strides != 0 && nbytes > 0) {
    int64_t lo, hi;
    if ((err = stride_extent(fn, "the host array", args->dims, args->byte_strides, rank, esize, &lo, &hi)) != NULL ||
        (err = check_address_range(fn, "the host array", args->data, lo, hi)) != NULL)
      return err;
  }

  if ((err = stela_check_alloc(c, fn, "the array", args->type, args->dims, rank, nbytes)) != NULL) return err;
  stela_storage* s = stela_storage_new(nbytes);
  if (s == NULL) return stela_oom();
  if (nbytes > 0) {
    int64_t dense[STELA_MAX_RANK];
    dense_strides(args->dims, rank, esize, dense);
    if (args->num_byte_strides == 0 || strides_equal(args->byte_strides, dense, rank))
      memcpy(s->data, args->data, nbytes);
    else
      copy_strided(s->data, dense, args->data, args->byte_strides, args->dims, rank, esize);
    normalize_pred(args->type, s->data, nbytes);
  }
  PJRT_Buffer* b;
  if ((err = stela_buffer_new(c, dev, args->type, args->dims, rank, s, &b)) != NULL) return err;
  PJRT_Event* ev = stela_event_ready(NULL);
  if (ev == NULL) {
    buffer_free(b);
    return stela_oom();
  }
  args->done_with_host_buffer = ev;
  args->buffer = b;
  return NULL;
}

PJRT_Error* stela_Client_CreateViewOfDeviceBuffer(PJRT_Client_CreateViewOfDeviceBuffer_Args* args) {
  static const char fn[] = "PJRT_Client_CreateViewOfDeviceBuffer";
  STELA_CHECK_ARGS(PJRT_Client_CreateViewOfDeviceBuffer_Args, args, buffer);
  PJRT_Client* c = args->client;
  if (c == NULL) return stela_error(PJRT_Error_Code_INVALID_ARGUMENT, "%s: client is NULL", fn);
  PJRT_Error* err = stela_check_type(fn, args->element_type);
  if (err != NULL) return err;
  size_t esize = stela_type_size(args->element_type), rank = args->num_dims, nbytes;
  if ((err = stela_check_shape(fn, "the array", args->dims, rank, esize, &nbytes)) != NULL) return err;
  PJRT_Memory* mem = STELA_HAS(PJRT_Client_CreateViewOfDeviceBuffer_Args, args, memory) ? args->memory : NULL;
  PJRT_Device* dev;
  if ((err = target_device(fn, c, args->device, mem, &dev)) != NULL) return err;
  if ((err = check_row_major(fn, args->layout, rank)) != NULL) return err;
  if (args->device_buffer_ptr == NULL && nbytes > 0)
    return stela_error(PJRT_Error_Code_INVALID_ARGUMENT, "%s: device_buffer_ptr is NULL", fn);
  stela_storage* s = small_zalloc(sizeof(*s));
  if (s == NULL) return stela_oom();
  atomic_init(&s->refs, 1);
  s->data = args->device_buffer_ptr;
  s->size = nbytes;
  s->owned = false;
  s->on_delete = args->on_delete_callback;
  s->on_delete_arg = args->on_delete_callback_arg;
  PJRT_Buffer* b;
  if ((err = stela_buffer_new(c, dev, args->element_type, args->dims, rank, s, &b)) != NULL) return err;
  args->buffer = b;
  return NULL;
}

#define NEED_BUFFER(fn, b) \
  if ((b) == NULL) return stela_error(PJRT_Error_Code_INVALID_ARGUMENT, fn ": buffer is NULL")

PJRT_Error* stela_Buffer_Destroy(PJRT_Buffer_Destroy_Args* args) {
  STELA_CHECK_ARGS(PJRT_Buffer_Destroy_Args, args, buffer);
  if (args->buffer != NULL) buffer_free(args->buffer);
  return NULL;
}

PJRT_Error* stela_Buffer_ElementType(PJRT_Buffer_ElementType_Args* args) {
  STELA_CHECK_ARGS(PJRT_Buffer_ElementType_Args, args, type);
  NEED_BUFFER("PJRT_Buffer_ElementType", args->buffer);
  args->type = args->buffer->type;
  return NULL;
}

PJRT_Error* stela_Buffer_Dimensions(PJRT_Buffer_Dimensions_Args* args) {
  STELA_CHECK_ARGS(PJRT_Buffer_Dimensions_Args, args, num_dims);
  NEED_BUFFER("PJRT_Buffer_Dimensions", args->buffer);
  args->dims = args->buffer->dims;
  args->num_dims = args->buffer->rank;
  return NULL;
}

PJRT_Error* stela_Buffer_UnpaddedDimensions(PJRT_Buffer_UnpaddedDimensions_Args* args) {
  STELA_CHECK_ARGS(PJRT_Buffer_UnpaddedDimensions_Args, args, num_dims);
  NEED_BUFFER("PJRT_Buffer_UnpaddedDimensions", args->buffer);
  args->unpadded_dims = args->buffer->dims;
  args->num_dims = args->buffer->rank;
  return NULL;
}

PJRT_Error* stela_Buffer_DynamicDimensionIndices(PJRT_Buffer_DynamicDimensionIndices_Args* args) {
  STELA_CHECK_ARGS(PJRT_Buffer_DynamicDimensionIndices_Args, args, num_dynamic_dims);
  NEED_BUFFER("PJRT_Buffer_DynamicDimensionIndices", args->buffer);
  args->dynamic_dim_indices = NULL;
  args->num_dynamic_dims = 0;
  return NULL;
}

PJRT_Error* stela_Buffer_GetMemoryLayout(PJRT_Buffer_GetMemoryLayout_Args* args) {
  STELA_CHECK_ARGS(PJRT_Buffer_GetMemoryLayout_Args, args, layout);
  NEED_BUFFER("PJRT_Buffer_GetMemoryLayout", args->buffer);
  PJRT_Buffer* b = args->buffer;
  PJRT_Buffer_MemoryLayout* l = &args->layout;
  memset(l, 0, PJRT_Buffer_MemoryLayout_STRUCT_SIZE);
  l->struct_size = PJRT_Buffer_MemoryLayout_STRUCT_SIZE;
  l->type = PJRT_Buffer_MemoryLayout_Type_Tiled;
  l->tiled.struct_size = PJRT_Buffer_MemoryLayout_Tiled_STRUCT_SIZE;
  l->tiled.minor_to_major = b->minor_to_major;
  l->tiled.minor_to_major_size = b->rank;
  return NULL;
}

PJRT_Error* stela_Buffer_OnDeviceSizeInBytes(PJRT_Buffer_OnDeviceSizeInBytes_Args* args) {
  STELA_CHECK_ARGS(PJRT_Buffer_OnDeviceSizeInBytes_Args, args, on_device_size_in_bytes);
  NEED_BUFFER("PJRT_Buffer_OnDeviceSizeInBytes", args->buffer);
  args->on_device_size_in_bytes = args->buffer->nbytes;
  return NULL;
}

PJRT_Error* stela_Buffer_Device(PJRT_Buffer_Device_Args* args) {
  STELA_CHECK_ARGS(PJRT_Buffer_Device_Args, args, device);
  NEED_BUFFER("PJRT_Buffer_Device", args->buffer);
  args->device = args->buffer->device;
  return NULL;
}

PJRT_Error* stela_Buffer_Memory(PJRT_Buffer_Memory_Args* args) {
  STELA_CHECK_ARGS(PJRT_Buffer_Memory_Args, args, memory);
  NEED_BUFFER("PJRT_Buffer_Memory", args->buffer);
  args->memory = args->buffer->device->memory;
  return NULL;
}

PJRT_Error* stela_Buffer_Delete(PJRT_Buffer_Delete_Args* args) {
  STELA_CHECK_ARGS(PJRT_Buffer_Delete_Args, args, buffer);
  NEED_BUFFER("PJRT_Buffer_Delete", args->buffer);
  PJRT_Buffer* b = args->buffer;
  pthread_mutex_lock(&b->mu);
  stela_storage* s = b->storage;
  b->storage = NULL;
  pthread_mutex_unlock(&b->mu);
  stela_storage_release(s);
  return NULL;
}

PJRT_Error* stela_Buffer_IsDeleted(PJRT_Buffer_IsDeleted_Args* args) {
  STELA_CHECK_ARGS(PJRT_Buffer_IsDeleted_Args, args, is_deleted);
  NEED_BUFFER("PJRT_Buffer_IsDeleted", args->buffer);
  PJRT_Buffer* b = args->buffer;
  pthread_mutex_lock(&b->mu);
  args->is_deleted = b->storage == NULL;
  pthread_mutex_unlock(&b->mu);
  return NULL;
}

static PJRT_Error* deleted_error(const char* fn) {
  return stela_error(PJRT_Error_Code_INVALID_ARGUMENT, "%s: the buffer was deleted or donated", fn);
}

static PJRT_Error* copy_buffer(const char* fn, PJRT_Buffer* b, PJRT_Device* dst, PJRT_Buffer** out) {
  if (dst == b->device)
    return stela_error(PJRT_Error_Code_INVALID_ARGUMENT, "%s: the buffer is already on device %d", fn, dst->id);
  stela_storage* src = stela_buffer_acquire(b);
  if (src == NULL) return deleted_error(fn);
  stela_storage* s = stela_storage_new(b->nbytes);
  if (s == NULL) {
    stela_storage_release(src);
    return stela_oom();
  }
  memcpy(s->data, src->data, b->nbytes);
  stela_storage_release(src);
  return stela_buffer_new(b->client, dst, b->type, b->dims, b->rank, s, out);
}

PJRT_Error* stela_Buffer_CopyToDevice(PJRT_Buffer_CopyToDevice_Args* args) {
  static const char fn[] = "PJRT_Buffer_CopyToDevice";
  STELA_CHECK_ARGS(PJRT_Buffer_CopyToDevice_Args, args, dst_buffer);
  NEED_BUFFER("PJRT_Buffer_CopyToDevice", args->buffer);
  if (!stela_client_owns_device(args->buffer->client, args->dst_device))
    return stela_error(PJRT_Error_Code_INVALID_ARGUMENT, "%s: dst_device is NULL or not a device of the buffer's client", fn);
  return copy_buffer(fn, args->buffer, args->dst_device, &args->dst_buffer);
}

PJRT_Error* stela_Buffer_CopyToMemory(PJRT_Buffer_CopyToMemory_Args* args) {
  static const char fn[] = "PJRT_Buffer_CopyToMemory";
  STELA_CHECK_ARGS(PJRT_Buffer_CopyToMemory_Args, args, dst_buffer);
  NEED_BUFFER("PJRT_Buffer_CopyToMemory", args->buffer);
  if (!stela_client_owns_memory(args->buffer->client, args->dst_memory))
    return stela_error(PJRT_Error_Code_INVALID_ARGUMENT, "%s: dst_memory is NULL or not a memory of the buffer's client", fn);
  return copy_buffer(fn, args->buffer, args->dst_memory->device, &args->dst_buffer);
}

PJRT_Error* stela_Buffer_ToHostBuffer(PJRT_Buffer_ToHostBuffer_Args* args) {
  static const char fn[] = "PJRT_Buffer_ToHostBuffer";
  STELA_CHECK_ARGS(PJRT_Buffer_ToHostBuffer_Args, args, dst_size);
  PJRT_Buffer* b = args->src;
  if (b == NULL) return stela_error(PJRT_Error_Code_INVALID_ARGUMENT, "%s: src is NULL", fn);
  size_t rank = b->rank, esize = b->esize;
  int64_t dense[STELA_MAX_RANK], dst_strides[STELA_MAX_RANK];
  dense_strides(b->dims, rank, esize, dense);
  memcpy(dst_strides, dense, rank * sizeof(int64_t));
  size_t need = b->nbytes;

  /* host_layout: NULL (the buffer's own, dense row-major), Tiled with any
     dimension order and no tiles (gopjrt passes row-major with
     tiled.struct_size 0, so inner struct sizes are not checked), or
     non-negative byte strides. */
  const PJRT_Buffer_MemoryLayout* l = args->host_layout;
  if (l != NULL && l->type == PJRT_Buffer_MemoryLayout_Type_Tiled) {
    const PJRT_Buffer_MemoryLayout_Tiled* t = &l->tiled;
    if (t->num_tiles != 0)
      return stela_error(PJRT_Error_Code_UNIMPLEMENTED, "%s: tiled host layouts are not supported", fn);
    if (t->minor_to_major_size != rank || (rank > 0 && t->minor_to_major == NULL))
      return stela_error(PJRT_Error_Code_INVALID_ARGUMENT, "%s: host layout has %zu minor_to_major entries for rank %zu",
                         fn, t->minor_to_major_size, rank);
    bool seen[STELA_MAX_RANK] = {false};
    int64_t s = (int64_t)esize;
    for (size_t i = 0; i < rank; i++) {
      int64_t d = t->minor_to_major[i];
      if (d < 0 || (size_t)d >= rank || seen[d])
        return stela_error(PJRT_Error_Code_INVALID_ARGUMENT,
                           "%s: host layout minor_to_major is not a permutation of 0..%zu", fn, rank - 1);
      seen[d] = true;
      dst_strides[d] = s;
      s *= b->dims[d];
    }
  } else if (l != NULL && l->type == PJRT_Buffer_MemoryLayout_Type_Strides) {
    const PJRT_Buffer_MemoryLayout_Strides* st = &l->strides;
    if (st->num_byte_strides != rank || (rank > 0 && st->byte_strides == NULL))
      return stela_error(PJRT_Error_Code_INVALID_ARGUMENT, "%s: host layout has %zu byte strides for rank %zu", fn,
                         st->num_byte_strides, rank);
    for (size_t i = 0; i < rank; i++) {
      if (st->byte_strides[i] < 0)
        return stela_error(PJRT_Error_Code_UNIMPLEMENTED, "%s: negative host byte strides are not supported", fn);
      dst_strides[i] = st->byte_strides[i];
    }
    int64_t lo, hi;
    PJRT_Error* err = stride_extent(fn, "host layout", b->dims, st->byte_strides, rank, esize, &lo, &hi);
    if (err == NULL && args->dst != NULL && hi > 0) err = check_address_range(fn, "host layout", args->dst, lo, hi);
    if (err != NULL) return err;
    need = (size_t)hi;
  } else if (l != NULL) {
    return stela_error(PJRT_Error_Code_INVALID_ARGUMENT, "%s: unknown host layout type %d", fn, (int)l->type);
  }

  if (args->dst == NULL) {
    /* The size query: no copy, no event. */
    args->dst_size = need;
    if (STELA_HAS(PJRT_Buffer_ToHostBuffer_Args, args, event)) args->event = NULL;
    return NULL;
  }
  if (!STELA_HAS(PJRT_Buffer_ToHostBuffer_Args, args, event))
    return stela_error(PJRT_Error_Code_INVALID_ARGUMENT, "%s: struct_size %zu has no room for the event", fn,
                       (size_t)args->struct_size);
  if (args->dst_size < need)
    return stela_error(PJRT_Error_Code_INVALID_ARGUMENT,
                       "%s: dst_size is %zu bytes, the %s[%zu dims] buffer needs %zu", fn, args->dst_size,
                       stela_type_name(b->type), rank, need);
  stela_storage* s = stela_buffer_acquire(b);
  if (s == NULL) return deleted_error(fn);
  if (need > 0) {
    if (strides_equal(dst_strides, dense, rank))
      memcpy(args->dst, s->data, b->nbytes);
    else
      copy_strided(args->dst, dst_strides, s->data, dense, b->dims, rank, esize);
  }
  stela_storage_release(s);
  PJRT_Event* ev = stela_event_ready(NULL);
  if (ev == NULL) return stela_oom();
  args->event = ev;
  return NULL;
}

PJRT_Error* stela_Buffer_IsOnCpu(PJRT_Buffer_IsOnCpu_Args* args) {
  STELA_CHECK_ARGS(PJRT_Buffer_IsOnCpu_Args, args, is_on_cpu);
  NEED_BUFFER("PJRT_Buffer_IsOnCpu", args->buffer);
  /* Host memory, reachable through UnsafePointer and
     OpaqueDeviceMemoryDataPointer, with external reference counts. */
  args->is_on_cpu = true;
  return NULL;
}

PJRT_Error* stela_Buffer_ReadyEvent(PJRT_Buffer_ReadyEvent_Args* args) {
  STELA_CHECK_ARGS(PJRT_Buffer_ReadyEvent_Args, args, event);
  NEED_BUFFER("PJRT_Buffer_ReadyEvent", args->buffer);
  PJRT_Event* ev = stela_event_ready(NULL);
  if (ev == NULL) return stela_oom();
  args->event = ev;
  return NULL;
}

static PJRT_Error* data_pointer(const char* fn, PJRT_Buffer* b, void** out) {
  pthread_mutex_lock(&b->mu);
  void* p = b->storage != NULL ? b->storage->data : NULL;
  pthread_mutex_unlock(&b->mu);
  if (p == NULL) return deleted_error(fn);
  *out = p;
  return NULL;
}

PJRT_Error* stela_Buffer_UnsafePointer(PJRT_Buffer_UnsafePointer_Args* args) {
  STELA_CHECK_ARGS(PJRT_Buffer_UnsafePointer_Args, args, buffer_pointer);
  NEED_BUFFER("PJRT_Buffer_UnsafePointer", args->buffer);
  void* p = NULL;
  PJRT_Error* err = data_pointer("PJRT_Buffer_UnsafePointer", args->buffer, &p);
  if (err == NULL) args->buffer_pointer = (uintptr_t)p;
  return err;
}

PJRT_Error* stela_Buffer_OpaqueDeviceMemoryDataPointer(PJRT_Buffer_OpaqueDeviceMemoryDataPointer_Args* args) {
  STELA_CHECK_ARGS(PJRT_Buffer_OpaqueDeviceMemoryDataPointer_Args, args, device_memory_ptr);
  NEED_BUFFER("PJRT_Buffer_OpaqueDeviceMemoryDataPointer", args->buffer);
  return data_pointer("PJRT_Buffer_OpaqueDeviceMemoryDataPointer", args->buffer, &args->device_memory_ptr);
}

/* External references (dlpack, numpy views) keep the memory alive even if
   the buffer is deleted, until the count drops to zero or the buffer is
   destroyed. */
PJRT_Error* stela_Buffer_IncreaseExternalReferenceCount(PJRT_Buffer_IncreaseExternalReferenceCount_Args* args) {
  STELA_CHECK_ARGS(PJRT_Buffer_IncreaseExternalReferenceCount_Args, args, buffer);
  NEED_BUFFER("PJRT_Buffer_IncreaseExternalReferenceCount", args->buffer);
  PJRT_Buffer* b = args->buffer;
  pthread_mutex_lock(&b->mu);
  if (b->storage == NULL) {
    pthread_mutex_unlock(&b->mu);
    return deleted_error("PJRT_Buffer_IncreaseExternalReferenceCount");
  }
  if (b->ext_refs++ == 0) {
    b->ext_storage = b->storage;
    stela_storage_retain(b->ext_storage);
  }
  pthread_mutex_unlock(&b->mu);
  return NULL;
}

PJRT_Error* stela_Buffer_DecreaseExternalReferenceCount(PJRT_Buffer_DecreaseExternalReferenceCount_Args* args) {
  STELA_CHECK_ARGS(PJRT_Buffer_DecreaseExternalReferenceCount_Args, args, buffer);
  NEED_BUFFER("PJRT_Buffer_DecreaseExternalReferenceCount", args->buffer);
  PJRT_Buffer* b = args->buffer;
  stela_storage* drop = NULL;
  pthread_mutex_lock(&b->mu);
  if (b->ext_refs == 0) {
    pthread_mutex_unlock(&b->mu);
    return stela_error(PJRT_Error_Code_FAILED_PRECONDITION,
                       "PJRT_Buffer_DecreaseExternalReferenceCount: the buffer has no external references");
  }
  if (--b->ext_refs == 0) {
    drop = b->ext_storage;
    b->ext_storage = NULL;
  }
  pthread_mutex_unlock(&b->mu);
  stela_storage_release(drop);
  return NULL;
}
