/*
 * rt_coll.c: the rendezvous where the device threads of one execution meet
 * for collectives (stela_rt.h, version 3; docs/cpu-plugin.md
 * "Collectives").
 *
 * The compiled program does the data movement and the arithmetic itself,
 * reading its peers' buffers directly (they are all in this process); the
 * runtime only tells each device where its peers' buffers are and when it
 * may read or overwrite them. Two calls do that: coll_exchange (publish
 * pointers, wait for the members to publish theirs) and coll_barrier (wait
 * for the members to get there).
 *
 * Pairing. Every device of an execution runs the same program, so it makes
 * the same sequence of calls; each device counts its calls (its phase),
 * and the k-th call of one device meets the k-th call of the others. A
 * device publishes one word, phase << 20 | op id, and waiting for member m
 * at phase t means waiting until m's word shows a phase of at least t. The
 * op id in the word catches devices that reached the same phase at
 * different ops (a program whose control flow differs between devices):
 * that is an error, not a silent exchange of the wrong buffers.
 *
 * Waiting spins briefly (not at all when there are more devices than
 * CPUs), yields a few times, then sleeps on a futex (a process-private
 * counter bumped at every change a waiter may wait for; a waiter that
 * registered as a sleeper before checking its condition cannot miss the
 * wake-up: every access is sequentially consistent).
 *
 * Failure. A device whose program fails (stela_rendezvous_leave with rc 1)
 * aborts the rendezvous: its message is kept, and every call waiting or
 * yet to come returns an error that quotes it. A member that ended its
 * program (successfully) while another waits for it at a call it will
 * never make aborts it too. Nobody waits forever on a device that is gone.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "stela_rt.h"

#ifdef __linux__
#include <linux/futex.h>
#include <sys/syscall.h>
#define HAVE_FUTEX 1
#endif

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define coll_relax() _mm_pause()
#else
#define coll_relax() __asm__ __volatile__("" ::: "memory")
#endif

#define OP_BITS 20
#define OP_MASK ((INT64_C(1) << OP_BITS) - 1)
/* How long a waiter spins before it yields, when every device has a CPU. */
#define COLL_SPIN_NS 20000
/* How many times it yields before it sleeps. */
#define COLL_YIELDS 8
/* How long an idle crew thread spins before it sleeps (the pool's
   workers spin as long). */
#define CREW_SPIN_NS 30000

enum { RUNNING = 0, ENDED = 1, FAILED = 2 };

/* One device's state, on a cache line of its own. Only its thread writes
   word, ptrs, k, op and phase; ptrs, k and op are written before the word
   that publishes them. */
typedef struct slot {
  _Atomic int64_t word; /* phase << OP_BITS | op id of the latest call */
  _Atomic int state;    /* RUNNING, ENDED, FAILED */
  int64_t phase;        /* calls made so far */
  void* const* ptrs;    /* published by the latest exchange (a barrier keeps them) */
  int64_t k;
  _Atomic(const char*) op; /* the latest call's op, for messages */
  /* Executions over several processes: what the latest exchange
     published (for a refresh) and the copies of its members in other
     processes' buffers (copies[j*ck + i], NULL for local members), all
     this device's own. */
  int64_t cn, ck;
  bool leak; /* a failed transfer may still write the copies: never free them */
  int64_t* cmembers;
  void** cmine;
  int64_t* csizes;
  void** copies;
} __attribute__((aligned(64))) slot;

struct stela_rendezvous {
  int64_t n, parts;
  int64_t spin_ns;
  _Atomic uint32_t seq; /* bumped at every change a waiter may wait for */
  _Atomic int sleepers;
  _Atomic int aborted;  /* set (once) by the device in cause, after why */
  _Atomic int64_t cause;
  char why[256];
  slot* slots;
  /* Several processes: the network, and the process of each device. */
  const stela_net* net;
  int32_t* owner;
  uint64_t gen; /* this execution's number (stela_net.executions) */
};

static int64_t coll_now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

stela_rendezvous* stela_rendezvous_new(int64_t n, int64_t parts) {
  if (n < 1 || parts < 1) return NULL;
  stela_rendezvous* rv = calloc(1, sizeof(*rv));
  if (rv == NULL) return NULL;
  void* slots = NULL;
  if (posix_memalign(&slots, 64, (size_t)n * sizeof(slot)) != 0) {
    free(rv);
    return NULL;
  }
  memset(slots, 0, (size_t)n * sizeof(slot));
  rv->slots = slots;
  rv->n = n;
  rv->parts = parts;
  long cpus = sysconf(_SC_NPROCESSORS_ONLN);
  rv->spin_ns = cpus >= n ? COLL_SPIN_NS : 0;
  for (int64_t d = 0; d < n; d++) {
    atomic_init(&rv->slots[d].word, 0);
    atomic_init(&rv->slots[d].state, RUNNING);
    atomic_init(&rv->slots[d].op, NULL);
  }
  atomic_init(&rv->seq, 0);
  atomic_init(&rv->sleepers, 0);
  atomic_init(&rv->aborted, 0);
  atomic_init(&rv->cause, -1);
  return rv;
}

static void free_copies(slot* s) {
  if (s->copies != NULL && !s->leak)
    for (int64_t i = 0; i < s->cn * s->ck; i++) free(s->copies[i]);
  if (!s->leak) free(s->copies);
  free(s->cmembers);
  free(s->cmine);
  free(s->csizes);
  s->copies = NULL;
  s->cmembers = NULL;
  s->cmine = NULL;
  s->csizes = NULL;
  s->cn = s->ck = 0;
}

void stela_rendezvous_free(stela_rendezvous* rv) {
  if (rv == NULL) return;
  for (int64_t d = 0; d < rv->n; d++) free_copies(&rv->slots[d]);
  free(rv->owner);
  free(rv->slots);
  free(rv);
}

stela_rendezvous* stela_rendezvous_new_global(int64_t n, int64_t parts, const stela_net* net, const int32_t* owner) {
  stela_rendezvous* rv = stela_rendezvous_new(n, parts);
  if (rv == NULL || net == NULL) return rv;
  rv->owner = malloc((size_t)n * sizeof(int32_t));
  if (rv->owner == NULL) {
    stela_rendezvous_free(rv);
    return NULL;
  }
  memcpy(rv->owner, owner, (size_t)n * sizeof(int32_t));
  rv->net = net;
  rv->gen = __atomic_fetch_add((uint64_t*)&net->executions, 1, __ATOMIC_SEQ_CST);
  /* Only this process's devices wait here; they have the CPUs. */
  int64_t local = 0;
  for (int64_t d = 0; d < n; d++) local += owner[d] == net->proc;
  long cpus = sysconf(_SC_NPROCESSORS_ONLN);
  rv->spin_ns = cpus >= local ? COLL_SPIN_NS : 0;
  return rv;
}

static bool is_local(const stela_rendezvous* rv, int64_t d) {
  return rv->net == NULL || rv->owner[d] == rv->net->proc;
}

/* Wakes the sleepers: something they may wait for changed. */
static void notify(stela_rendezvous* rv) {
  atomic_fetch_add(&rv->seq, 1);
  if (atomic_load(&rv->sleepers) > 0) {
#ifdef HAVE_FUTEX
    syscall(SYS_futex, (uint32_t*)&rv->seq, FUTEX_WAKE_PRIVATE, INT_MAX, NULL, NULL, 0);
#endif
  }
}

/* Aborts the rendezvous because of device d's failure (message msg). The
   first caller's message is kept; later ones change nothing. */
static void rv_abort(stela_rendezvous* rv, int64_t d, const char* msg) {
  int64_t none = -1;
  if (!atomic_compare_exchange_strong(&rv->cause, &none, d)) return;
  snprintf(rv->why, sizeof(rv->why), "%s", msg != NULL && *msg ? msg : "the program failed without a message");
  atomic_store(&rv->aborted, 1);
  notify(rv);
}

int64_t stela_rendezvous_cause(stela_rendezvous* rv) { return rv == NULL ? -1 : atomic_load(&rv->cause); }

void stela_rendezvous_leave(stela_rendezvous* rv, int64_t d, int rc, const char* err) {
  if (rv == NULL || d < 0 || d >= rv->n) return;
  if (rc != 0 && rc != 2) rv_abort(rv, d, err);
  atomic_store(&rv->slots[d].state, rc == 0 || rc == 2 ? ENDED : FAILED);
  notify(rv);
}

void stela_rt_for_device(stela_rt* rt, const stela_rt* base, stela_rendezvous* rv, int64_t d, int64_t replicas,
                         int64_t partitions) {
  *rt = *base;
  if (replicas < 1) replicas = 1;
  if (partitions < 1) partitions = 1;
  rt->num_devices = replicas * partitions;
  rt->device_index = d;
  rt->num_replicas = replicas;
  rt->num_partitions = partitions;
  rt->replica_id = d / partitions;
  rt->partition_id = d % partitions;
  rt->rendezvous = rv;
}

/* "device 3 (replica 1, partition 1)" */
static void describe(const stela_rendezvous* rv, int64_t d, char* buf, size_t n) {
  snprintf(buf, n, "device %lld (replica %lld, partition %lld)", (long long)d, (long long)(d / rv->parts),
           (long long)(d % rv->parts));
}

/* The error of a call that finds the rendezvous aborted. */
static int32_t aborted_error(stela_rendezvous* rv, const char* op, char err[256]) {
  char who[96];
  describe(rv, atomic_load(&rv->cause), who, sizeof(who));
  snprintf(err, 256, "%s: aborted, %s failed: %s", op, who, rv->why);
  return 1;
}

/* Fails the call of device self with a message of its own, which also
   aborts the rendezvous (the others cannot go on either). */
static int32_t fail(stela_rendezvous* rv, int64_t self, char err[256]) {
  if (rv != NULL) rv_abort(rv, self, err);
  return 1;
}

/* Waits until member m has made call number t (at op op_id). */
static int32_t wait_for(stela_rendezvous* rv, int64_t self, int64_t m, int64_t t, int64_t op_id, const char* op,
                        char err[256]) {
  slot* s = &rv->slots[m];
  int64_t until = -1;
  int yields = 0;
  for (int k = 0;; k++) {
    int64_t w = atomic_load(&s->word);
    if ((w >> OP_BITS) >= t) {
      if ((w >> OP_BITS) == t && (w & OP_MASK) != op_id) {
        char who[96];
        describe(rv, m, who, sizeof(who));
        const char* other = atomic_load_explicit(&s->op, memory_order_relaxed);
        snprintf(err, 256, "%s: %s is at another collective%s%s%s (the devices ran different collectives)", op, who,
                 other ? " (" : "", other ? other : "", other ? ")" : "");
        return fail(rv, self, err);
      }
      return 0;
    }
    if (atomic_load(&rv->aborted)) return aborted_error(rv, op, err);
    if (atomic_load(&s->state) != RUNNING) {
      /* Its last word was stored before its state: look once more. */
      if ((atomic_load(&s->word) >> OP_BITS) >= t) continue;
      if (atomic_load(&s->state) == FAILED) {
        /* Its failure aborts the rendezvous (leave sets aborted first,
           unless another failure came before): report that. */
        while (!atomic_load(&rv->aborted)) coll_relax();
        return aborted_error(rv, op, err);
      }
      char who[96];
      describe(rv, m, who, sizeof(who));
      snprintf(err, 256, "%s: %s ended its program without joining this collective (the devices ran different collectives)",
               op, who);
      return fail(rv, self, err);
    }
    /* Spin, then yield, then sleep. */
    if (until < 0) until = coll_now_ns() + rv->spin_ns;
    if (rv->spin_ns > 0 && ((k & 63) != 63 || coll_now_ns() < until)) {
      coll_relax();
      continue;
    }
    if (yields < COLL_YIELDS) {
      yields++;
      sched_yield();
      continue;
    }
#ifdef HAVE_FUTEX
    uint32_t seen = atomic_load(&rv->seq);
    atomic_fetch_add(&rv->sleepers, 1);
    if ((atomic_load(&s->word) >> OP_BITS) < t && !atomic_load(&rv->aborted) && atomic_load(&s->state) == RUNNING)
      syscall(SYS_futex, (uint32_t*)&rv->seq, FUTEX_WAIT_PRIVATE, seen, NULL, NULL, 0);
    atomic_fetch_sub(&rv->sleepers, 1);
#else
    struct timespec ts = {0, 50000};
    nanosleep(&ts, NULL);
#endif
  }
}

/* The checks, the publication (of mine, when publish) and the waiting
   common to both calls; *t is the call's number. A barrier does not
   touch the published pointers: peers may still be reading them (a
   collective_permute's exchange waits for the source only, so the source
   may reach its barrier before its target has read). */
static int32_t arrive(stela_rendezvous* rv, int64_t self, int64_t op_id, const char* op, const int64_t* members,
                      int64_t n, bool publish, void* const* mine, int64_t k, char err[256], int64_t* t) {
  if (self < 0 || self >= rv->n) {
    snprintf(err, 256, "%s: device index %lld is not one of the execution's %lld devices", op, (long long)self,
             (long long)rv->n);
    return 1;
  }
  for (int64_t j = 0; j < n; j++)
    if (members[j] < 0 || members[j] >= rv->n) {
      snprintf(err, 256, "%s: member %lld is not one of the execution's %lld devices", op, (long long)members[j],
               (long long)rv->n);
      return fail(rv, self, err);
    }
  if (atomic_load(&rv->aborted)) return aborted_error(rv, op, err);
  slot* me = &rv->slots[self];
  if (publish) {
    me->ptrs = mine;
    me->k = k;
  }
  atomic_store_explicit(&me->op, op, memory_order_relaxed);
  *t = ++me->phase;
  atomic_store(&me->word, *t << OP_BITS | (op_id & OP_MASK));
  notify(rv);
  for (int64_t j = 0; j < n; j++) {
    if (members[j] == self) continue;
    if (wait_for(rv, self, members[j], *t, op_id & OP_MASK, op, err) != 0) return 1;
  }
  return 0;
}

/* One device and no rendezvous: only this device may be a member. */
static int32_t alone(int64_t self, const char* op, const int64_t* members, int64_t n, char err[256]) {
  for (int64_t j = 0; j < n; j++)
    if (members[j] != self) {
      snprintf(err, 256, "%s: a collective with device %lld, but the execution runs on one device", op,
               (long long)members[j]);
      return 1;
    }
  return 0;
}

static int32_t coll_exchange(stela_rendezvous* rv, int64_t self, int64_t op_id, const char* op,
                             const int64_t* members, int64_t n, void* const* mine, int64_t k, void** peers,
                             char err[256]) {
  if (rv != NULL && rv->net != NULL) {
    snprintf(err, 256,
             "%s: the program calls coll_exchange without buffer sizes, which an execution over several processes "
             "needs (a program compiled before runtime table version 5: recompile it)",
             op);
    return fail(rv, self, err);
  }
  if (rv == NULL) {
    if (alone(self, op, members, n, err) != 0) return 1;
    for (int64_t j = 0; j < n; j++)
      for (int64_t i = 0; i < k; i++) peers[j * k + i] = mine[i];
    return 0;
  }
  int64_t t;
  if (arrive(rv, self, op_id, op, members, n, true, mine, k, err, &t) != 0) return 1;
  for (int64_t j = 0; j < n; j++) {
    const slot* s = &rv->slots[members[j]];
    if (s->k != k) {
      char who[96];
      describe(rv, members[j], who, sizeof(who));
      snprintf(err, 256, "%s: %s published %lld buffers, this device %lld (the devices ran different collectives)",
               op, who, (long long)s->k, (long long)k);
      return fail(rv, self, err);
    }
    for (int64_t i = 0; i < k; i++) peers[j * k + i] = s->ptrs[i];
  }
  return 0;
}

/* ---- Executions over several processes ---- */

/* The tag of buffer i sent by device src to device dst at call t of
   execution gen: 8 bits of gen, 20 of t, 12 of each device, 12 of i. */
static uint64_t xfer_tag(uint64_t gen, int64_t t, int64_t src, int64_t dst, int64_t i) {
  return ((gen & 0xFF) << 56) | ((uint64_t)(t & 0xFFFFF) << 36) | ((uint64_t)(src & 0xFFF) << 24) |
         ((uint64_t)(dst & 0xFFF) << 12) | (uint64_t)(i & 0xFFF);
}

/* Checks members and splits them: the local ones into lm (*nl). */
static int32_t split_members(stela_rendezvous* rv, int64_t self, const char* op, const int64_t* members, int64_t n,
                             int64_t* lm, int64_t* nl, char err[256]) {
  if (self < 0 || self >= rv->n) {
    snprintf(err, 256, "%s: device index %lld is not one of the execution's %lld devices", op, (long long)self,
             (long long)rv->n);
    return 1;
  }
  *nl = 0;
  for (int64_t j = 0; j < n; j++) {
    if (members[j] < 0 || members[j] >= rv->n) {
      snprintf(err, 256, "%s: member %lld is not one of the execution's %lld devices", op, (long long)members[j],
               (long long)rv->n);
      return fail(rv, self, err);
    }
    if (is_local(rv, members[j])) lm[(*nl)++] = members[j];
  }
  return 0;
}

/* Sends this device's published buffers to the members of s's latest
   exchange in other processes and receives theirs into s's copies, as
   call t. */
static int32_t transfer(stela_rendezvous* rv, int64_t self, int64_t t, bool refresh, const char* op, char err[256]) {
  slot* s = &rv->slots[self];
  int64_t nx = 0;
  for (int64_t j = 0; j < s->cn; j++)
    if (!is_local(rv, s->cmembers[j])) nx += 2 * s->ck;
  if (nx == 0) return 0;
  stela_xfer* xs = calloc((size_t)nx, sizeof(stela_xfer));
  if (xs == NULL) {
    snprintf(err, 256, "%s: out of memory", op);
    return fail(rv, self, err);
  }
  int64_t x = 0;
  for (int64_t j = 0; j < s->cn; j++) {
    int64_t m = s->cmembers[j];
    if (is_local(rv, m)) continue;
    for (int64_t i = 0; i < s->ck; i++) {
      int64_t flags = s->csizes[i] & ~STELA_RT_COLL_SIZE_MASK, bytes = s->csizes[i] & STELA_RT_COLL_SIZE_MASK;
      if (bytes <= 0 || (flags & STELA_RT_COLL_UNREAD) != 0 || ((flags & STELA_RT_COLL_LATE) != 0) != refresh)
        continue;
      xs[x++] = (stela_xfer){.send = 1, .proc = rv->owner[m], .peer = m, .tag = xfer_tag(rv->gen, t, self, m, i),
                             .ptr = s->cmine[i], .bytes = bytes};
      xs[x++] = (stela_xfer){.send = 0, .proc = rv->owner[m], .peer = m, .tag = xfer_tag(rv->gen, t, m, self, i),
                             .ptr = s->copies[j * s->ck + i], .bytes = bytes};
    }
  }
  char why[256];
  why[0] = '\0';
  int32_t rc = x == 0 ? 0 : rv->net->sendrecv(rv->net->ctx, xs, x, why);
  free(xs);
  if (rc == 2) s->leak = true;
  if (rc != 0) {
    snprintf(err, 256, "%s: %s", op, why[0] ? why : "the network transfer failed");
    return fail(rv, self, err);
  }
  return 0;
}

static int32_t exchange_global(stela_rendezvous* rv, int64_t self, int64_t op_id, const char* op,
                               const int64_t* members, int64_t n, void* const* mine, const int64_t* sizes, int64_t k,
                               void** peers, char err[256]) {
  int64_t* lm = malloc((size_t)(n + 1) * sizeof(int64_t));
  if (lm == NULL) {
    snprintf(err, 256, "%s: out of memory", op);
    return fail(rv, self, err);
  }
  int64_t nl, t;
  if (split_members(rv, self, op, members, n, lm, &nl, err) != 0 ||
      arrive(rv, self, op_id, op, lm, nl, true, mine, k, err, &t) != 0) {
    free(lm);
    return 1;
  }
  free(lm);
  /* This device's previous copies are done with (its peers read only
     their own). */
  slot* s = &rv->slots[self];
  free_copies(s);
  s->cmembers = malloc((size_t)(n + 1) * sizeof(int64_t));
  s->cmine = malloc((size_t)(k + 1) * sizeof(void*));
  s->csizes = malloc((size_t)(k + 1) * sizeof(int64_t));
  s->copies = calloc((size_t)(n * k + 1), sizeof(void*));
  bool ok = s->cmembers && s->cmine && s->csizes && s->copies;
  if (ok) {
    s->cn = n;
    s->ck = k;
    memcpy(s->cmembers, members, (size_t)n * sizeof(int64_t));
    memcpy(s->cmine, mine, (size_t)k * sizeof(void*));
    memcpy(s->csizes, sizes, (size_t)k * sizeof(int64_t));
    for (int64_t j = 0; j < n && ok; j++) {
      if (is_local(rv, members[j])) continue;
      for (int64_t i = 0; i < k && ok; i++) {
        if ((sizes[i] & STELA_RT_COLL_UNREAD) != 0) continue; /* its copy stays NULL */
        int64_t bytes = sizes[i] & STELA_RT_COLL_SIZE_MASK;
        size_t b = bytes > 0 ? (size_t)bytes : 1;
        b = (b + 63) / 64 * 64;
        ok = posix_memalign(&s->copies[j * k + i], 64, b) == 0;
        if (!ok) s->copies[j * k + i] = NULL;
      }
    }
  }
  if (!ok) {
    snprintf(err, 256, "%s: out of memory for the copies of other processes' buffers", op);
    return fail(rv, self, err);
  }
  if (transfer(rv, self, t, false, op, err) != 0) return 1;
  for (int64_t j = 0; j < n; j++) {
    int64_t m = members[j];
    if (!is_local(rv, m)) {
      for (int64_t i = 0; i < k; i++) peers[j * k + i] = s->copies[j * k + i];
      continue;
    }
    const slot* ms = &rv->slots[m];
    if (ms->k != k) {
      char who[96];
      describe(rv, m, who, sizeof(who));
      snprintf(err, 256, "%s: %s published %lld buffers, this device %lld (the devices ran different collectives)",
               op, who, (long long)ms->k, (long long)k);
      return fail(rv, self, err);
    }
    for (int64_t i = 0; i < k; i++) peers[j * k + i] = ms->ptrs[i];
  }
  return 0;
}

static int32_t coll_exchange_sized(stela_rendezvous* rv, int64_t self, int64_t op_id, const char* op,
                                   const int64_t* members, int64_t n, void* const* mine, const int64_t* sizes,
                                   int64_t k, void** peers, char err[256]) {
  if (rv == NULL || rv->net == NULL) return coll_exchange(rv, self, op_id, op, members, n, mine, k, peers, err);
  return exchange_global(rv, self, op_id, op, members, n, mine, sizes, k, peers, err);
}

static int32_t coll_barrier(stela_rendezvous* rv, int64_t self, int64_t op_id, const char* op,
                            const int64_t* members, int64_t n, char err[256]) {
  if (rv == NULL) return alone(self, op, members, n, err);
  int64_t t;
  if (rv->net == NULL) return arrive(rv, self, op_id, op, members, n, false, NULL, 0, err, &t);
  /* Members in other processes read copies: only the local ones are
     waited for, and a refresh sends and receives the copies again. */
  int64_t* lm = malloc((size_t)(n + 1) * sizeof(int64_t));
  if (lm == NULL) {
    snprintf(err, 256, "%s: out of memory", op);
    return fail(rv, self, err);
  }
  int64_t nl;
  int32_t rc = split_members(rv, self, op, members, n, lm, &nl, err);
  if (rc == 0) rc = arrive(rv, self, op_id, op, lm, nl, false, NULL, 0, err, &t);
  free(lm);
  if (rc == 0 && (op_id & STELA_RT_COLL_REFRESH) != 0) rc = transfer(rv, self, t, true, op, err);
  return rc;
}

/* The version 3 fields of a one-device table (stela_rt_init). */
void stela_rt_init_collectives(stela_rt* rt) {
  rt->num_devices = 1;
  rt->device_index = 0;
  rt->num_replicas = 1;
  rt->num_partitions = 1;
  rt->replica_id = 0;
  rt->partition_id = 0;
  rt->rendezvous = NULL;
  rt->coll_exchange = coll_exchange;
  rt->coll_barrier = coll_barrier;
  rt->coll_exchange_sized = coll_exchange_sized;
}

/* ---- Running an execution's devices ---- */

/* What the devices of one execution share: how many of the threads
   running devices 1.. are still at it. */
typedef struct dev_exec {
  pthread_mutex_t mu;
  pthread_cond_t cv;
  int64_t running;
} dev_exec;

typedef struct dev_run {
  stela_pool* pool;
  stela_entry_fn entry;
  void* const* args;
  void* const* results;
  char* err;
  int* rc;
  stela_rendezvous* rv;
  int64_t d;
  dev_exec* exec;
  stela_rt table;
  pthread_t thread;
  bool threaded; /* on a thread started for it (joined) */
  bool crewed;   /* on a crew thread (counted in exec->running) */
} dev_run;

static void dev_main(dev_run* r) {
  r->err[0] = '\0'; /* the program writes a terminated message, if any */
  *r->rc = stela_rt_run(r->pool, &r->table, r->entry, r->args, r->results, r->err);
  r->err[255] = '\0';
  stela_rendezvous_leave(r->rv, r->d, *r->rc, r->err);
}

static void* dev_thread(void* arg) {
  dev_main(arg);
  return NULL;
}

/* The crew (stela_rt.h). Each worker waits on a condition variable of
   its own for a device to run; the idle ones are a stack. */
typedef struct crew_worker {
  stela_crew* crew;
  pthread_t tid;
  pthread_mutex_t mu;
  pthread_cond_t cv;
  dev_run* _Atomic job; /* set under mu; read without it while spinning */
  bool quit;    /* under mu */
  bool spin;    /* the last execution had a CPU per device: spin when idle */
  struct crew_worker* next; /* the idle stack, under crew->mu */
} crew_worker;

struct stela_crew {
  pthread_mutex_t mu;
  crew_worker* idle;
  crew_worker** all;
  size_t nall, cap;
  bool stopped;
};

stela_crew* stela_crew_new(void) {
  stela_crew* c = calloc(1, sizeof(*c));
  if (c != NULL) pthread_mutex_init(&c->mu, NULL);
  return c;
}

static void* crew_main(void* arg) {
  crew_worker* w = arg;
  stela_crew* c = w->crew;
  pthread_mutex_lock(&w->mu);
  for (;;) {
    if (w->job == NULL && !w->quit && w->spin) {
      /* The next execution often comes soon (a training loop): wait for
         it spinning a little before sleeping, unless the devices
         outnumber the CPUs (spinning would take them from the others). */
      pthread_mutex_unlock(&w->mu);
      int64_t until = coll_now_ns() + CREW_SPIN_NS;
      for (int k = 0; atomic_load_explicit(&w->job, memory_order_acquire) == NULL; k++) {
        coll_relax();
        if ((k & 63) == 63 && coll_now_ns() > until) break;
      }
      pthread_mutex_lock(&w->mu);
    }
    while (w->job == NULL && !w->quit) pthread_cond_wait(&w->cv, &w->mu);
    if (w->job == NULL) break;
    dev_run* r = w->job;
    pthread_mutex_unlock(&w->mu);
    dev_main(r);
    dev_exec* e = r->exec; /* r may be freed once e->running drops to 0 */
    pthread_mutex_lock(&w->mu);
    w->job = NULL;
    pthread_mutex_unlock(&w->mu);
    pthread_mutex_lock(&c->mu);
    w->next = c->idle;
    c->idle = w;
    pthread_mutex_unlock(&c->mu);
    pthread_mutex_lock(&e->mu);
    if (--e->running == 0) pthread_cond_signal(&e->cv);
    pthread_mutex_unlock(&e->mu);
    pthread_mutex_lock(&w->mu);
  }
  pthread_mutex_unlock(&w->mu);
  return NULL;
}

/* An idle worker, or a new one; NULL when the crew is stopped or no
   thread can be started. */
static crew_worker* crew_take(stela_crew* c) {
  if (c == NULL) return NULL;
  pthread_mutex_lock(&c->mu);
  crew_worker* w = NULL;
  if (c->stopped) goto out;
  if ((w = c->idle) != NULL) {
    c->idle = w->next;
    goto out;
  }
  if (c->nall == c->cap) {
    size_t cap = c->cap ? 2 * c->cap : 8;
    crew_worker** all = realloc(c->all, cap * sizeof(*all));
    if (all == NULL) goto out;
    c->all = all;
    c->cap = cap;
  }
  if ((w = calloc(1, sizeof(*w))) == NULL) goto out;
  w->crew = c;
  pthread_mutex_init(&w->mu, NULL);
  pthread_cond_init(&w->cv, NULL);
  /* Crew threads block every signal, as the pool's workers do: the
     process's handlers (Go's, in a Go program) run on its own threads. */
  sigset_t all, old;
  sigfillset(&all);
  pthread_sigmask(SIG_SETMASK, &all, &old);
  int rc = pthread_create(&w->tid, NULL, crew_main, w);
  pthread_sigmask(SIG_SETMASK, &old, NULL);
  if (rc != 0) {
    pthread_mutex_destroy(&w->mu);
    pthread_cond_destroy(&w->cv);
    free(w);
    w = NULL;
    goto out;
  }
  c->all[c->nall++] = w;
out:
  pthread_mutex_unlock(&c->mu);
  return w;
}

void stela_crew_stop(stela_crew* c) {
  if (c == NULL) return;
  pthread_mutex_lock(&c->mu);
  c->stopped = true;
  pthread_mutex_unlock(&c->mu);
  /* No worker is added from now on; those running a device finish it. */
  for (size_t i = 0; i < c->nall; i++) {
    crew_worker* w = c->all[i];
    pthread_mutex_lock(&w->mu);
    w->quit = true;
    pthread_cond_signal(&w->cv);
    pthread_mutex_unlock(&w->mu);
    pthread_join(w->tid, NULL);
    pthread_mutex_destroy(&w->mu);
    pthread_cond_destroy(&w->cv);
    free(w);
  }
  free(c->all);
  c->all = NULL;
  c->nall = c->cap = 0;
  c->idle = NULL;
}

void stela_crew_free(stela_crew* c) {
  if (c == NULL) return;
  stela_crew_stop(c);
  pthread_mutex_destroy(&c->mu);
  free(c);
}

/* Runs the nrun devices idx[] of an execution meeting at rv (see
   stela_rt_run_devices); args etc. are indexed like idx. */
static int run_devices(stela_pool* pool, const stela_rt* base, stela_entry_fn entry, int64_t replicas,
                       int64_t partitions, bool collectives, size_t stack_size, stela_rendezvous* rv, int64_t nrun,
                       const int64_t* idx, void* const* const* args, void* const* const* results, char* const* errs,
                       int* rcs, int64_t* cause) {
  dev_run* runs = calloc((size_t)nrun, sizeof(dev_run));
  if (runs == NULL) {
    stela_rendezvous_free(rv);
    return -1;
  }
  dev_exec exec;
  pthread_mutex_init(&exec.mu, NULL);
  pthread_cond_init(&exec.cv, NULL);
  exec.running = 0;
  for (int64_t j = 0; j < nrun; j++) {
    dev_run* r = &runs[j];
    r->pool = pool;
    r->entry = entry;
    r->args = args[j];
    r->results = results[j];
    r->err = errs[j];
    r->rc = &rcs[j];
    r->rv = rv;
    r->d = idx[j];
    r->exec = &exec;
    stela_rt_for_device(&r->table, base, rv, idx[j], replicas, partitions);
  }
  /* Devices 1.. on the crew, else on threads of their own. */
  stela_crew* crew = stack_size == 0 ? stela_pool_crew(pool) : NULL;
  pthread_attr_t attr;
  bool have_attr = false;
  for (int64_t j = 1; j < nrun; j++) {
    dev_run* r = &runs[j];
    int64_t d = r->d;
    crew_worker* w = crew_take(crew);
    if (w != NULL) {
      r->crewed = true;
      pthread_mutex_lock(&exec.mu);
      exec.running++;
      pthread_mutex_unlock(&exec.mu);
      pthread_mutex_lock(&w->mu);
      w->job = r;
      w->spin = rv->spin_ns > 0;
      pthread_cond_signal(&w->cv);
      pthread_mutex_unlock(&w->mu);
      continue;
    }
    if (!have_attr) {
      have_attr = pthread_attr_init(&attr) == 0;
      if (have_attr && stack_size > 0) pthread_attr_setstacksize(&attr, stack_size);
    }
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    r->threaded = pthread_create(&r->thread, have_attr ? &attr : NULL, dev_thread, r) == 0;
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    if (!r->threaded && collectives) {
      /* The others would wait for it at their first collective: it fails,
         which aborts them. */
      snprintf(r->err, 256, "could not start a thread for device %lld (replica %lld, partition %lld)", (long long)d,
               (long long)(d / partitions), (long long)(d % partitions));
      *r->rc = 1;
      stela_rendezvous_leave(rv, d, 1, r->err);
    }
  }
  if (have_attr) pthread_attr_destroy(&attr);
  dev_main(&runs[0]);
  for (int64_t j = 1; j < nrun; j++) {
    if (runs[j].threaded)
      pthread_join(runs[j].thread, NULL);
    else if (!runs[j].crewed && !collectives)
      dev_main(&runs[j]); /* no thread to be had: run it here */
  }
  pthread_mutex_lock(&exec.mu);
  while (exec.running > 0) pthread_cond_wait(&exec.cv, &exec.mu);
  pthread_mutex_unlock(&exec.mu);
  pthread_mutex_destroy(&exec.mu);
  pthread_cond_destroy(&exec.cv);
  *cause = stela_rendezvous_cause(rv);
  stela_rendezvous_free(rv);
  free(runs);
  return 0;
}

int stela_rt_run_devices(stela_pool* pool, const stela_rt* base, stela_entry_fn entry, int64_t replicas,
                         int64_t partitions, bool collectives, size_t stack_size, void* const* const* args,
                         void* const* const* results, char* const* errs, int* rcs, int64_t* cause) {
  int64_t n = replicas * partitions;
  *cause = -1;
  if (n < 1) return -1;
  stela_rendezvous* rv = stela_rendezvous_new(n, partitions);
  int64_t* idx = malloc((size_t)n * sizeof(int64_t));
  if (rv == NULL || idx == NULL) {
    stela_rendezvous_free(rv);
    free(idx);
    return -1;
  }
  for (int64_t d = 0; d < n; d++) idx[d] = d;
  int rc = run_devices(pool, base, entry, replicas, partitions, collectives, stack_size, rv, n, idx, args, results,
                       errs, rcs, cause);
  free(idx);
  return rc;
}

int stela_rt_run_devices_global(stela_pool* pool, const stela_rt* base, stela_entry_fn entry, int64_t replicas,
                                int64_t partitions, const stela_net* net, const int32_t* owner, int64_t nlocal,
                                const int64_t* local, void* const* const* args, void* const* const* results,
                                char* const* errs, int* rcs, int64_t* cause) {
  int64_t n = replicas * partitions;
  *cause = -1;
  if (n < 1 || nlocal < 1) return -1;
  stela_rendezvous* rv = stela_rendezvous_new_global(n, partitions, net, owner);
  if (rv == NULL) return -1;
  return run_devices(pool, base, entry, replicas, partitions, true, 0, rv, nlocal, local, args, results, errs, rcs,
                     cause);
}
