/*
 * stela_rt.h: the runtime that compiled Stela programs call (ABI version
 * 7, docs/cpu-plugin.md "The compiled program's ABI"), and the plugin's
 * side of it: the thread pool, the GEMM routines and the rendezvous of
 * collectives (rt_coll.c).
 *
 * The same source (rt.c) is built into the plugin and, through cgo, into
 * test binaries (package pjrt/cpu/internal/rt), so that the code
 * generator's tests run compiled programs on the real runtime.
 */
#ifndef STELA_RT_H_
#define STELA_RT_H_

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define STELA_RT_VERSION 7

/* The rendezvous of one execution's device threads (rt_coll.c). */
typedef struct stela_rendezvous stela_rendezvous;

/* The table passed to stela_entry. Fields may only be appended (with a
   version bump): compiled programs check version >= 2 (>= 3 when they use
   the fields of version 3) and nothing else. */
typedef struct stela_rt {
  int64_t version;     /* STELA_RT_VERSION */
  int64_t num_threads; /* threads in the pool, >= 1 (the calling thread counts as one) */
  /* Runs fn(ctx, begin, end) over disjoint chunks covering [0, n), each at
     least grain long (except the last), on the pool and the calling
     thread; returns when all are done. Nested calls (from inside fn), and
     calls while the pool is busy with another execution, run serially on
     the calling thread. n <= 0 returns at once. */
  void (*parallel_for)(void* ctx, void (*fn)(void* ctx, int64_t begin, int64_t end), int64_t n, int64_t grain);
  /* Row-major GEMM like cblas: C[M,N] = alpha * op(A)[M,K] * op(B)[K,N] +
     beta * C, trans != 0 meaning op = transpose. beta == 0 never reads C. */
  void (*sgemm)(int32_t transA, int32_t transB, int64_t M, int64_t N, int64_t K, float alpha, const float* A,
                int64_t lda, const float* B, int64_t ldb, float beta, float* C, int64_t ldc);
  void (*dgemm)(int32_t transA, int32_t transB, int64_t M, int64_t N, int64_t K, double alpha, const double* A,
                int64_t lda, const double* B, int64_t ldb, double beta, double* C, int64_t ldc);

  /* ---- Version 3: the device this run is on, and collectives. ---- */
  /* The execution's devices: num_replicas x num_partitions, >= 1. */
  int64_t num_devices;
  /* This run's execution index, replica_id * num_partitions + partition_id
     (the order of the device assignment, replica-major). */
  int64_t device_index;
  int64_t num_replicas, num_partitions;
  int64_t replica_id, partition_id;
  /* The execution's rendezvous; NULL when it runs on one device. */
  stela_rendezvous* rendezvous;
  /* Collectives meet through these two calls; every device of an execution
     makes the same calls in the same order (the same program), which is
     how calls pair up. op_id numbers the op in the program (1 to 2^20-1)
     and op names it for messages; members lists execution indices.

     coll_exchange publishes this device's k pointers `mine` and waits
     until each of the n members (this device among them, or not) has
     published its own for the same call; then peers[j*k + i] is member
     j's pointer i. coll_barrier waits until each of the n members has
     reached it. Both return 0, or 1 with a message in err (naming op)
     when the execution was aborted (a device failed, or ended its program
     while others waited for it) or a member is at another op. A member
     list of 0 waits for nobody; rendezvous NULL (one device) allows only
     this device as a member. Pointers published by an exchange stay valid
     until the publisher's next call: an op reads its peers' memory
     between an exchange and a barrier over the same devices. */
  int32_t (*coll_exchange)(stela_rendezvous* rv, int64_t self, int64_t op_id, const char* op, const int64_t* members,
                           int64_t n, void* const* mine, int64_t k, void** peers, char err[256]);
  int32_t (*coll_barrier)(stela_rendezvous* rv, int64_t self, int64_t op_id, const char* op, const int64_t* members,
                          int64_t n, char err[256]);

  /* ---- Version 4: cancellation. ---- */
  /* The execution's cancellation flag, never NULL: 0 while the execution
     may go on; another thread sets it (to a nonzero PJRT error code:
     DEADLINE_EXCEEDED, CANCELLED) to stop it. Programs read it (a relaxed
     atomic load) at the back-edges of while loops, where they leave the
     loop, and between kernels, where they return 3; parallel_for runs no
     further chunk once it is set (a region's chunks are at most
     STELA_RT_MAX_CHUNK_GRAINS grains long, so that a long loop is
     cancellable at that granularity). Once it is set, the results of the
     run are undefined (but every access stays in bounds): the caller
     reports the cancellation, not the results. */
  _Atomic int32_t* cancel;

  /* ---- Version 5: collectives across processes. ---- */
  /* coll_exchange with the byte size of each of the k pointers (every
     member publishes buffers of the same sizes: the devices run one
     program). In an execution whose devices are in several processes
     (stela_rendezvous_new_global), a member in another process publishes
     copies: its buffers as they were at the exchange, received over the
     network into memory of this device's own, valid until its next
     exchange. coll_barrier with STELA_RT_COLL_REFRESH in op_id (a barrier
     after which the members read their peers' buffers again, as a
     segmented all_reduce does) receives those copies again; without it a
     barrier waits for the members in this process only (those in others
     read copies). */
  int32_t (*coll_exchange_sized)(stela_rendezvous* rv, int64_t self, int64_t op_id, const char* op,
                                 const int64_t* members, int64_t n, void* const* mine, const int64_t* sizes, int64_t k,
                                 void** peers, char err[256]);

  /* ---- Version 6: batched GEMM, fused attention (rt_attn.h), bf16 GEMM. ---- */
  /* batch independent products like sgemm, product b reading A + b*strideA
     and B + b*strideB and writing C + b*strideC. The runtime runs small
     products in parallel across the batch (each on one thread), large
     ones one after another, each split across the pool as sgemm does. */
  void (*sgemm_batch)(int32_t transA, int32_t transB, int64_t batch, int64_t M, int64_t N, int64_t K, float alpha,
                      const float* A, int64_t lda, int64_t strideA, const float* B, int64_t ldb, int64_t strideB,
                      float beta, float* C, int64_t ldc, int64_t strideC);
  /* Fused attention (rt_attn.h): for each of batch products, O[M, Dv] =
     softmax(mask ? scale * op(Q)[M, D] * op(K)[D, L] : fill) * op(V)[L, Dv],
     the softmax along L; op and the leading dimensions and batch strides
     as for sgemm_batch. mask is NULL or 1-byte elements, product g's
     [M, L] matrix at mask + (g / mask_div) * M * L. D, Dv <= 512. */
  void (*attention_f32)(int64_t batch, int64_t M, int64_t L, int64_t D, int64_t Dv, const float* Q, int32_t transQ,
                        int64_t ldq, int64_t strideQ, const float* K, int32_t transK, int64_t ldk, int64_t strideK,
                        const float* V, int32_t transV, int64_t ldv, int64_t strideV, float scale,
                        const uint8_t* mask, int64_t mask_div, float fill, float* O);
  /* GEMM with bf16 operands (also version 6). */
  /* sgemm with A (bf16A != 0) and B (bf16B != 0) each f32 or bf16 (raw
     bits, uint16_t): C[M,N] (f32) = alpha * op(A) * op(B) + beta * C, the
     products and sums in f32, as accurate as sgemm of the operands
     converted to f32 (rt.c, rt_gemm_bf16). */
  void (*gemm_bf16)(int32_t transA, int32_t transB, int32_t bf16A, int32_t bf16B, int64_t M, int64_t N, int64_t K,
                    float alpha, const void* A, int64_t lda, const void* B, int64_t ldb, float beta, float* C,
                    int64_t ldc);

  /* ---- Version 7: FFT (rt_fft.c). ---- */
  /* stablehlo.fft of type (0 FFT, 1 IFFT, 2 RFFT, 3 IRFFT) over the last
     rank (1 to 3) dimensions, of fft lengths n0[, n1[, n2]] (unused ones
     ignored), of batch arrays: in and out are row-major [batch, ...]
     arrays of complex<double> / double (f64 != 0) or complex<float> /
     float, their transformed dimensions the lengths (for RFFT out's
     last, and IRFFT in's, is n/2+1). pocketfft's algorithm (rt_fft_impl.h,
     as numpy.fft.fftn, ifftn, rfftn and irfftn apply it; IFFT and IRFFT
     scale each dimension's transform by 1/n), on the pool of rt (the
     table itself) across lines. out may be in (FFT, IFFT). Returns 0, or
     1 with a message in err (out of memory, bad arguments). */
  int32_t (*fft)(const struct stela_rt* rt, int32_t type, int32_t f64, int64_t batch, int64_t rank, int64_t n0,
                 int64_t n1, int64_t n2, const void* in, void* out, char err[256]);
} stela_rt;

/* The bit of a barrier's op_id that asks for the peers' copies again
   (version 5, coll_exchange_sized); op ids are below 2^20. */
#define STELA_RT_COLL_REFRESH (INT64_C(1) << 30)
/* Bits of coll_exchange_sized's sizes: a buffer the peers read only
   after a refresh (it is written after the exchange: sent at the
   refresh, not at the exchange), or never (not sent; its copy is NULL). */
#define STELA_RT_COLL_LATE (INT64_C(1) << 62)
#define STELA_RT_COLL_UNREAD (INT64_C(1) << 61)
#define STELA_RT_COLL_SIZE_MASK (STELA_RT_COLL_UNREAD - 1)

/* One transfer between this process and another (stela_net): send (or
   receive) bytes at ptr to (from) process proc, matched by tag. */
typedef struct stela_xfer {
  int32_t send;
  int32_t proc;
  int64_t peer; /* the remote device (execution index), for messages */
  uint64_t tag;
  void* ptr;
  int64_t bytes;
} stela_xfer;

/* The network of a multi-process execution (the plugin's Gloo shim):
   sendrecv posts all n transfers and waits for them, returning 0, or 1
   with a message (naming the process) in err; 2 is a failure that may
   leave transfers pending, whose memory must then not be freed. */
typedef struct stela_net {
  void* ctx;
  int32_t proc, nprocs; /* this process, and the job's count */
  int32_t (*sendrecv)(void* ctx, const stela_xfer* xs, int64_t n, char err[256]);
  /* Executions over several processes started so far (every process
     starts them in the same order): part of each transfer's tag, so that
     transfers of two executions never match. */
  uint64_t executions;
} stela_net;

/* What entry returns when rt->cancel was set (version 4). */
#define STELA_RT_CANCELLED 3
/* The longest chunk of a parallel region, in grains (version 4). */
#define STELA_RT_MAX_CHUNK_GRAINS 1024

/* The entry point of a compiled program. */
typedef int (*stela_entry_fn)(void* const* args, void* const* results, char err[256], const stela_rt* rt);

/* ---- The plugin's side. ---- */

typedef struct stela_pool stela_pool;
typedef struct stela_crew stela_crew;

/* The default pool size: $STELA_CPU_THREADS when it is a positive integer,
   else the number of online CPUs. */
int stela_rt_default_threads(void);

/* A pool of threads-1 workers (started on first use) plus the caller.
   NULL when out of memory. */
stela_pool* stela_pool_new(int threads);
/* Joins the workers; the pool runs everything serially afterwards. Waits
   for a parallel_for in progress. */
void stela_pool_stop(stela_pool* p);
/* Stops (if needed) and frees the pool. */
void stela_pool_free(stela_pool* p);
/* The pool's crew (below), NULL when it has none. */
stela_crew* stela_pool_crew(stela_pool* p);

/* A crew: threads that run the devices of multi-device executions
   (stela_rt_run_devices), started when an execution needs more than are
   idle and parked between executions (rt_coll.c), so that an execution
   does not pay for starting and joining its threads. Every pool has one;
   stela_pool_stop stops it (joining its threads), after which executions
   start threads of their own. */
stela_crew* stela_crew_new(void);
void stela_crew_stop(stela_crew* c);
void stela_crew_free(stela_crew* c);

/* Fills rt for a pool of the given size (one device: index 0 of 1; a
   cancellation flag that is never set). */
void stela_rt_init(stela_rt* rt, int threads);
/* Fills the version 3 fields of a one-device table (rt_coll.c). */
void stela_rt_init_collectives(stela_rt* rt);

/* A rendezvous for the n device threads of one execution (rt_coll.c);
   NULL when out of memory. */
stela_rendezvous* stela_rendezvous_new(int64_t n, int64_t num_partitions);
/* A rendezvous of an execution whose n devices are in several processes:
   owner[d] is the process of execution index d (net->proc this one's);
   members in other processes meet through net (coll_exchange_sized).
   owner is copied. */
stela_rendezvous* stela_rendezvous_new_global(int64_t n, int64_t num_partitions, const stela_net* net,
                                              const int32_t* owner);
void stela_rendezvous_free(stela_rendezvous* rv);
/* Makes rt (a copy of base) the table of device d (execution index) of an
   execution of replicas x partitions devices meeting at rv. */
void stela_rt_for_device(stela_rt* rt, const stela_rt* base, stela_rendezvous* rv, int64_t d, int64_t replicas,
                         int64_t partitions);
/* Device d's program has ended: rc 0 (or 2, a failed expectation: it ran
   to the end) means it joins no more collectives; any other rc means it
   failed with message err, which aborts the rendezvous: every collective
   waiting or yet to come returns an error. Waiters for d wake up. */
void stela_rendezvous_leave(stela_rendezvous* rv, int64_t d, int rc, const char* err);
/* The device whose failure aborted the rendezvous, or -1. */
int64_t stela_rendezvous_cause(stela_rendezvous* rv);

/* Runs entry on the replicas x partitions devices of one execution at the
   same time: device d (execution index) on a thread of its own (device 0
   on the calling thread; the others on the pool's crew, or on threads
   started for the execution when stack_size is not 0 or the crew cannot
   give one), with a copy of base for device d
   (stela_rt_for_device) bound to one rendezvous and the pool bound as
   stela_rt_run binds it; args[d] and results[d] are its buffers, errs[d]
   (256 bytes) and rcs[d] its message and return code. A thread that
   cannot be started (stack_size: 0 for the default) fails its device,
   with a message saying so, when the program uses collectives (the others
   then abort at their next collective); otherwise its device runs on the
   calling thread after device 0. *cause is the device whose failure
   aborted the execution, or -1. Returns 0, or -1 when out of memory
   (nothing ran). */
int stela_rt_run_devices(stela_pool* pool, const stela_rt* base, stela_entry_fn entry, int64_t replicas,
                         int64_t partitions, bool collectives, size_t stack_size, void* const* const* args,
                         void* const* const* results, char* const* errs, int* rcs, int64_t* cause);

/* stela_rt_run_devices for an execution spread over processes: only the
   nlocal execution indices local[] run here (args, results, errs and rcs
   are indexed like local), meeting the others' devices through net
   (owner[d]: the process of execution index d). */
int stela_rt_run_devices_global(stela_pool* pool, const stela_rt* base, stela_entry_fn entry, int64_t replicas,
                                int64_t partitions, const stela_net* net, const int32_t* owner, int64_t nlocal,
                                const int64_t* local, void* const* const* args, void* const* const* results,
                                char* const* errs, int* rcs, int64_t* cause);

/* Runs a compiled program's entry on the calling thread with pool bound to
   it (parallel_for uses the pool of the thread that calls it; NULL means
   serial). */
int stela_rt_run(stela_pool* pool, const stela_rt* rt, stela_entry_fn entry, void* const* args, void* const* results,
                 char err[256]);

/* Whether sgemm/dgemm go to a BLAS library (found on first use; never with
   STELA_CPU_BLAS=none), and its file name. */
int stela_rt_blas(const char** name);
/* Whether the search for the BLAS library is done (stela_rt_blas would
   not wait). */
int stela_rt_blas_loaded(void);

/* Bits of the optional `const int stela_rt_uses` a compiled program
   exports: what of the table it calls, so that the plugin can get it ready
   before the first execution. */
#define STELA_RT_USES_GEMM 1
/* The program calls coll_exchange or coll_barrier: its devices must run
   at the same time. */
#define STELA_RT_USES_COLLECTIVES 2

/* The plugin's own GEMM (the fallback), callable directly for tests. */
/* Turns the bf16 GEMM off (0) or on (1) for the process, as
   $STELA_CPU_BF16=off does; returns whether bf16 products now use it. */
int stela_rt_set_bf16(int on);
/* Sets the f32 GEMM choice for the process, as $STELA_CPU_GEMM does:
   0 auto, 1 own (the AVX-512 kernel), 2 dnnl (oneDNN or the BLAS
   library), 3 avx2 (the AVX2/generic kernel); returns whether the CPU has
   AVX-512 (else own runs the AVX2/generic kernel). */
int stela_rt_set_gemm(int mode);
/* Turns the AVX-512 kernel of few-row products (rt_skinny.h) off (0) or
   on (1), as $STELA_CPU_GEMV=avx2 does; returns whether it is now used.
   stela_rt_skinny_calls counts the products it ran (for tests). */
int stela_rt_set_skinny(int on);
/* Turns its one-row kernel (the weight's rows split among the threads)
   off (0: column blocks, as $STELA_CPU_GEMV=cols) or on (1); returns
   whether it is now used. */
int stela_rt_set_skinny_row(int on);
long stela_rt_skinny_calls(void);
void stela_sgemm_own(int32_t transA, int32_t transB, int64_t M, int64_t N, int64_t K, float alpha, const float* A,
                     int64_t lda, const float* B, int64_t ldb, float beta, float* C, int64_t ldc);
void stela_dgemm_own(int32_t transA, int32_t transB, int64_t M, int64_t N, int64_t K, double alpha, const double* A,
                     int64_t lda, const double* B, int64_t ldb, double beta, double* C, int64_t ldc);

#endif /* STELA_RT_H_ */
