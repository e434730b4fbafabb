/*
 * gloo.cc: the plugin's transfers between processes, through Gloo's TCP
 * transport (stela_gloo.h; docs/distributed.md). Gloo's rendezvous (each
 * process's listening address) goes through the PJRT client's key-value
 * store, which the host backs with the job's etcd: a Store on the
 * store's callbacks, as XLA's CPU client does.
 *
 * A transfer is a Gloo unbound buffer sent to, or received from, one
 * process, matched by its slot (the tag: call, devices, buffer). Every
 * wait has the client's timeout; a peer that died closes its connections,
 * which fails the waits at once.
 */
#include <gloo/rendezvous/context.h>
#include <gloo/rendezvous/store.h>
#include <gloo/transport/tcp/device.h>
#include <gloo/transport/unbound_buffer.h>

#include <pthread.h>
#include <signal.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <vector>

#include "stela_gloo.h"

namespace {

/* stela_xfer (stela_rt.h), which includes C11 atomics a C++ compiler
   does not take. */
struct xfer {
  int32_t send;
  int32_t proc;
  int64_t peer;
  uint64_t tag;
  void* ptr;
  int64_t bytes;
};
static_assert(sizeof(xfer) == 40, "stela_xfer layout");

class KVStore : public gloo::rendezvous::Store {
 public:
  KVStore(stela_kv_get_fn get, stela_kv_put_fn put, void* kv, std::string prefix, int timeout_ms)
      : get_(get), put_(put), kv_(kv), prefix_(std::move(prefix)), timeout_ms_(timeout_ms) {}

  void set(const std::string& key, const std::vector<char>& data) override {
    char err[256] = "";
    if (put_(kv_, (prefix_ + key).c_str(), data.data(), data.size(), err) != 0)
      throw std::runtime_error("key-value store: put " + key + ": " + err);
  }

  std::vector<char> get(const std::string& key) override { return get(key, timeout_ms_); }

  void wait(const std::vector<std::string>& keys) override {
    for (const auto& k : keys) get(k, timeout_ms_);
  }

  void wait(const std::vector<std::string>& keys, const std::chrono::milliseconds& timeout) override {
    for (const auto& k : keys) get(k, (int)timeout.count());
  }

 private:
  std::vector<char> get(const std::string& key, int timeout_ms) {
    char err[256] = "";
    char* v = nullptr;
    size_t n = 0;
    if (get_(kv_, (prefix_ + key).c_str(), timeout_ms, &v, &n, err) != 0)
      throw std::runtime_error("key-value store: get " + key + ": " + err);
    std::vector<char> out(v, v + n);
    free(v);
    return out;
  }

  stela_kv_get_fn get_;
  stela_kv_put_fn put_;
  void* kv_;
  std::string prefix_;
  int timeout_ms_;
};

void copy_message(char err[256], const std::string& s) { snprintf(err, 256, "%s", s.c_str()); }

}  // namespace

struct stela_gloo {
  std::shared_ptr<gloo::rendezvous::Context> ctx;
  std::shared_ptr<gloo::transport::Device> dev;
  std::chrono::milliseconds timeout;
  int rank;
  /* After a failed transfer the connections are not to be trusted: every
     later transfer fails with the first failure's message. */
  std::mutex mu;
  std::string broken;
};

extern "C" int stela_gloo_built(void) { return 1; }

extern "C" stela_gloo* stela_gloo_connect(int rank, int size, const char* host, const char* iface,
                                          const char* prefix, int64_t timeout_ms, stela_kv_get_fn get,
                                          stela_kv_put_fn put, void* kv, char err[256]) {
  try {
    gloo::transport::tcp::attr a;
    if (iface != nullptr && *iface != '\0')
      a.iface = iface;
    else
      a.hostname = host != nullptr && *host != '\0' ? host : "127.0.0.1";
    auto g = std::make_unique<stela_gloo>();
    /* Gloo's event loop thread starts here: it blocks every signal, as
       the plugin's own threads do (a Go program's handlers run on its own
       threads), SIGPIPE above all: a write to a peer that died must fail
       with EPIPE, not kill the process. */
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    try {
      g->dev = gloo::transport::tcp::CreateDevice(a);
    } catch (...) {
      pthread_sigmask(SIG_SETMASK, &old, nullptr);
      throw;
    }
    pthread_sigmask(SIG_SETMASK, &old, nullptr);
    g->timeout = std::chrono::milliseconds(timeout_ms);
    g->rank = rank;
    g->ctx = std::make_shared<gloo::rendezvous::Context>(rank, size);
    g->ctx->setTimeout(g->timeout);
    KVStore store(get, put, kv, prefix, (int)timeout_ms);
    g->ctx->connectFullMesh(store, g->dev);
    return g.release();
  } catch (const std::exception& e) {
    copy_message(err, std::string("Gloo: connecting process ") + std::to_string(rank) + " of " +
                          std::to_string(size) + ": " + e.what());
  } catch (...) {
    copy_message(err, "Gloo: connecting failed");
  }
  return nullptr;
}

/* How long a failed sendrecv waits for its other transfers to end (a
   peer that is alive finishes them, one that died fails them). */
static const std::chrono::milliseconds kDrain(10000);

extern "C" int32_t stela_gloo_sendrecv(void* gp, const void* xsp, int64_t n, char err[256]) {
  stela_gloo* g = static_cast<stela_gloo*>(gp);
  const xfer* xs = static_cast<const xfer*>(xsp);
  {
    std::lock_guard<std::mutex> l(g->mu);
    if (!g->broken.empty()) {
      copy_message(err, "an earlier transfer between the processes failed: " + g->broken);
      return 1;
    }
  }
  std::vector<std::unique_ptr<gloo::transport::UnboundBuffer>> bufs((size_t)n);
  std::vector<bool> done((size_t)n, false);
  int64_t at = -1;
  std::string msg;
  try {
    for (int64_t i = 0; i < n; i++) {
      at = i;
      bufs[i] = g->ctx->createUnboundBuffer(xs[i].ptr, (size_t)xs[i].bytes);
      if (xs[i].send)
        bufs[i]->send(xs[i].proc, xs[i].tag);
      else
        bufs[i]->recv(xs[i].proc, xs[i].tag);
    }
    for (int64_t i = 0; i < n; i++) {
      at = i;
      if (xs[i].send)
        bufs[i]->waitSend(g->timeout);
      else
        bufs[i]->waitRecv(g->timeout);
      done[i] = true;
    }
    return 0;
  } catch (const std::exception& e) {
    const xfer& x = xs[at];
    char what[128];
    snprintf(what, sizeof what, "%s process %d (device %lld) over Gloo: ", x.send ? "sending to" : "receiving from",
             x.proc, (long long)x.peer);
    msg = std::string(what) + e.what();
  } catch (...) {
    msg = "a Gloo transfer failed";
  }
  copy_message(err, msg);
  {
    std::lock_guard<std::mutex> l(g->mu);
    if (g->broken.empty()) g->broken = msg;
  }
  /* The other transfers may still read or write their memory, which the
     caller frees once this returns: wait for them to end (or fail). One
     still pending after that is left to Gloo, with its buffer; return 2
     so that the caller does not free what it receives into. */
  bool pending = false;
  for (int64_t i = 0; i < n; i++) {
    if (done[i] || i == at || !bufs[i]) continue;
    try {
      if (xs[i].send)
        bufs[i]->waitSend(kDrain);
      else
        bufs[i]->waitRecv(kDrain);
    } catch (const std::exception& e) {
      std::string w = e.what();
      if (w.find("Timed out") != std::string::npos) {
        pending = true;
        bufs[i].release();
      }
    } catch (...) {
      pending = true;
      bufs[i].release();
    }
  }
  return pending ? 2 : 1;
}

extern "C" void stela_gloo_free(stela_gloo* g) { delete g; }
