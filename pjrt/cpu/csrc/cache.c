/*
 * cache.c: the compile cache on disk (docs/cache.md: the format, the
 * trust model and the limits).
 *
 * <root>/objects/<key>.so is an entry: the compiled shared object, then a
 * manifest (text), then a 24-byte footer "stela-manifest %08x\n" giving
 * the manifest's length. The manifest names the entry's key and holds a
 * SHA-256 over the key, the object and its signature, and the signature
 * itself. An entry is read whole through a descriptor opened without
 * following symbolic links, checked (a regular file of ours that no one
 * else may write, its manifest, its digest), and only then loaded: the
 * verified bytes are copied into a sealed memfd that dlopen maps through
 * /proc/self/fd, so the file cannot change between the check and the
 * load. Entries are written to a temporary name, fsync'ed and renamed.
 * Directories are created 0700; a root that others may write, or that
 * another user owns, is refused with an error that says how to fix it.
 */
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <inttypes.h>
#include <sys/file.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "internal.h"

#define FN "stela cpu compile"
#define FOOTER_LEN 24
#define MAX_MANIFEST (1 << 20)
#define MAX_ENTRY ((off_t)1 << 31)
#define DEFAULT_MAX_BYTES ((int64_t)1 << 30)
#define STALE_TMP_SECONDS (24 * 3600)
/* The size ledger (objects/.size) is trusted for this long; then a full
   scan recounts the entries and removes stale temporary files. */
#define LEDGER_SECONDS 3600

static const char entry_magic[] = "stela-cpu-cache-entry 1";

void stela_cache_warn(const char* fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  char buf[1024];
  vsnprintf(buf, sizeof(buf), fmt, ap);
  va_end(ap);
  fprintf(stderr, "stela cpu plugin: warning: %s\n", buf);
  fflush(stderr);
}

/* ---- The root and its directories ---- */

/* <root>: the create option stela_cache_dir, else $STELA_CACHE_DIR, else
   $XDG_CACHE_HOME/stela, else $HOME/.cache/stela. NULL if caching is off
   ($STELA_CPU_NO_CACHE=1) or no directory can be named. */
static char* cache_root(const char* configured) {
  const char* off = getenv("STELA_CPU_NO_CACHE");
  if (off != NULL && strcmp(off, "1") == 0) return NULL;
  if (configured != NULL) return stela_strdup(configured);
  const char* env = getenv("STELA_CACHE_DIR");
  if (env != NULL && *env != '\0') return stela_strdup(env);
  env = getenv("XDG_CACHE_HOME");
  if (env != NULL && env[0] == '/') return stela_asprintf("%s/stela", env);
  env = getenv("HOME");
  if (env != NULL && *env != '\0') return stela_asprintf("%s/.cache/stela", env);
  return NULL;
}

/* Creates the missing directories of path, 0700. */
static bool mkdir_all(const char* path) {
  char* p = stela_strdup(path);
  if (p == NULL) return false;
  for (char* s = p + 1; *s; s++) {
    if (*s != '/') continue;
    *s = '\0';
    if (mkdir(p, 0700) != 0 && errno != EEXIST) {
      free(p);
      return false;
    }
    *s = '/';
  }
  bool ok = mkdir(p, 0700) == 0 || errno == EEXIST;
  free(p);
  return ok;
}

/* Whether st (the cache root or a directory in it) is safe to load code
   from: a directory of ours that no one else may write. Otherwise an
   error that says what is wrong and how to fix it. */
static PJRT_Error* check_dir(const char* path, const struct stat* st, const char* root) {
  if (!S_ISDIR(st->st_mode))
    return stela_error(PJRT_Error_Code_FAILED_PRECONDITION,
                       FN ": the compile cache directory %s is not a directory (or is a symbolic link inside the cache "
                       "root %s): remove it, or name another cache root (STELA_CACHE_DIR)",
                       path, root);
  uid_t me = geteuid();
  if (st->st_uid != me)
    return stela_error(PJRT_Error_Code_FAILED_PRECONDITION,
                       FN ": the compile cache directory %s is owned by user %u, not by you (user %u): code found "
                       "there would be loaded and run in this process. Use a directory of your own: set "
                       "STELA_CACHE_DIR (or the client option stela_cache_dir), or remove %s",
                       path, (unsigned)st->st_uid, (unsigned)me, path);
  if (st->st_mode & (S_IWGRP | S_IWOTH))
    return stela_error(PJRT_Error_Code_FAILED_PRECONDITION,
                       FN ": the compile cache directory %s is writable by %s (mode %04o): other users could plant "
                       "code that Stela would load and run. Fix it with: chmod 700 %s",
                       path, (st->st_mode & S_IWOTH) ? "others" : "its group", (unsigned)(st->st_mode & 07777), path);
  return NULL;
}

/* A directory under the root (objects/, tmp/): created 0700, never a
   symbolic link, ours, and 0700 even when an older Stela made it 0755. */
static PJRT_Error* sub_dir(const char* root, const char* name, char** path_out, int* fd_out) {
  char* path = stela_asprintf("%s/%s", root, name);
  if (path == NULL) return stela_oom();
  if (mkdir(path, 0700) != 0 && errno != EEXIST) {
    PJRT_Error* err = stela_error(PJRT_Error_Code_FAILED_PRECONDITION, FN ": cannot make the compile cache directory %s: %s",
                                  path, strerror(errno));
    free(path);
    return err;
  }
  int fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  struct stat st;
  PJRT_Error* err = NULL;
  if (fd < 0) {
    err = errno == ELOOP || errno == ENOTDIR
              ? stela_error(PJRT_Error_Code_FAILED_PRECONDITION,
                            FN ": the compile cache directory %s is a symbolic link or not a directory: remove it (Stela "
                            "makes it again)",
                            path)
              : stela_error(PJRT_Error_Code_FAILED_PRECONDITION, FN ": cannot open the compile cache directory %s: %s",
                            path, strerror(errno));
  } else if (fstat(fd, &st) != 0) {
    err = stela_error(PJRT_Error_Code_INTERNAL, FN ": fstat %s: %s", path, strerror(errno));
  } else if ((err = check_dir(path, &st, root)) == NULL && (st.st_mode & 077) != 0) {
    fchmod(fd, 0700);
  }
  if (err != NULL) {
    if (fd >= 0) close(fd);
    free(path);
    return err;
  }
  *path_out = path;
  if (fd_out != NULL)
    *fd_out = fd;
  else
    close(fd);
  return NULL;
}

/* STELA_CACHE_MAX_BYTES: bytes, optionally with K, M, G or T (powers of
   1024); 0 for no limit; unset or empty: 1 GiB. */
static PJRT_Error* max_bytes(int64_t* out) {
  const char* s = getenv("STELA_CACHE_MAX_BYTES");
  *out = DEFAULT_MAX_BYTES;
  if (s == NULL || *s == '\0') return NULL;
  int64_t v;
  bool ok = stela_parse_size(s, &v);
  if (!ok)
    return stela_error(PJRT_Error_Code_INVALID_ARGUMENT,
                       FN ": STELA_CACHE_MAX_BYTES=%s: want the compile cache's size limit in bytes, a whole number "
                       "optionally followed by K, M, G or T (KiB, MiB, GiB, TiB), or 0 for no limit",
                       s);
  *out = v;
  return NULL;
}

PJRT_Error* stela_cache_open(const char* configured, stela_cache* c) {
  memset(c, 0, sizeof(*c));
  c->objects_fd = -1;
  PJRT_Error* err = max_bytes(&c->max_bytes);
  if (err != NULL) return err;
  c->root = cache_root(configured);
  if (c->root == NULL) return NULL; /* off */
  if (!mkdir_all(c->root)) {
    err = stela_error(PJRT_Error_Code_FAILED_PRECONDITION,
                      FN ": cannot make the compile cache directory %s: %s (set STELA_CACHE_DIR to another directory, "
                      "or STELA_CPU_NO_CACHE=1)",
                      c->root, strerror(errno));
    stela_cache_close(c);
    return err;
  }
  struct stat st;
  /* The root may be a symbolic link the user made (~/.cache on another
     disk): what it points at is checked. */
  if (stat(c->root, &st) != 0) {
    err = stela_error(PJRT_Error_Code_FAILED_PRECONDITION, FN ": cannot use the compile cache directory %s: %s",
                      c->root, strerror(errno));
  } else if ((err = check_dir(c->root, &st, c->root)) == NULL &&
             (err = sub_dir(c->root, "objects", &c->objects, &c->objects_fd)) == NULL) {
    err = sub_dir(c->root, "tmp", &c->tmp, NULL);
  }
  if (err != NULL) {
    stela_cache_close(c);
    return err;
  }
  return NULL;
}

void stela_cache_close(stela_cache* c) {
  if (c->objects_fd >= 0) close(c->objects_fd);
  free(c->root);
  free(c->objects);
  free(c->tmp);
  memset(c, 0, sizeof(*c));
  c->objects_fd = -1;
}

/* ---- Entries ---- */

static void digest_field(stela_sha256* h, const void* p, size_t n) {
  uint64_t len = n; /* little-endian on every target the plugin builds for */
  stela_sha256_update(h, &len, sizeof(len));
  stela_sha256_update(h, p, n);
}

/* The digest of an entry: SHA-256 over the format tag, the key, the
   object and its signature, each preceded by its length (8 bytes,
   little-endian). */
static void entry_digest(const char* key, const void* elf, size_t n, const char* sig, size_t sig_n, char out[65]) {
  stela_sha256 h;
  stela_sha256_init(&h);
  digest_field(&h, entry_magic, sizeof(entry_magic) - 1);
  digest_field(&h, key, strlen(key));
  digest_field(&h, elf, n);
  digest_field(&h, sig, sig_n);
  stela_sha256_hex(&h, out);
}

/* Reads the line "<word> <value>\n" at *p (text ends at e) into buf (cap
   bytes, NUL-terminated) and moves *p past it. */
static bool read_field(const char** p, const char* e, const char* word, char* buf, size_t cap) {
  size_t wn = strlen(word);
  if ((size_t)(e - *p) < wn + 1 || memcmp(*p, word, wn) != 0 || (*p)[wn] != ' ') return false;
  const char* v = *p + wn + 1;
  const char* nl = memchr(v, '\n', (size_t)(e - v));
  if (nl == NULL || (size_t)(nl - v) >= cap) return false;
  memcpy(buf, v, (size_t)(nl - v));
  buf[nl - v] = '\0';
  *p = nl + 1;
  return true;
}

/* Checks an entry's bytes: sets *elf_n and *sig (malloc) and returns
   NULL, or returns why it is bad (static text or *why_buf). */
static const char* check_entry(const unsigned char* data, size_t size, const char* key, size_t* elf_n, char** sig,
                               char* why_buf, size_t why_cap) {
  if (size < FOOTER_LEN) return "truncated: too short to hold a manifest";
  const char* f = (const char*)data + size - FOOTER_LEN;
  unsigned len = 0;
  char tail[FOOTER_LEN + 1];
  memcpy(tail, f, FOOTER_LEN);
  tail[FOOTER_LEN] = '\0';
  char nl = 0;
  if (memcmp(tail, "stela-manifest ", 15) != 0 || sscanf(tail + 15, "%8x%c", &len, &nl) != 2 || nl != '\n')
    return "truncated or damaged: no manifest at its end";
  if (len > MAX_MANIFEST || len > size - FOOTER_LEN) return "damaged: its manifest's length is out of range";
  const char* m = f - len;
  const char* e = f;
  size_t n = (size_t)(m - (const char*)data);
  char line[128];
  size_t mn = sizeof(entry_magic) - 1;
  if ((size_t)(e - m) < mn + 1 || memcmp(m, entry_magic, mn) != 0 || m[mn] != '\n')
    return "damaged: its manifest is not a Stela cache manifest (version 1)";
  m += mn + 1;
  if (!read_field(&m, e, "key", line, sizeof(line))) return "damaged: its manifest has no key";
  if (strcmp(line, key) != 0) {
    snprintf(why_buf, why_cap, "its manifest is for key %.16s..., another program's (a swapped object)", line);
    return why_buf;
  }
  if (!read_field(&m, e, "size", line, sizeof(line))) return "damaged: its manifest has no size";
  char* end;
  errno = 0;
  unsigned long long want = strtoull(line, &end, 10);
  if (*end != '\0' || errno != 0 || want != n) return "truncated or damaged: the object's size is not its manifest's";
  char digest[65];
  if (!read_field(&m, e, "sha256", digest, sizeof(digest)) || strlen(digest) != 64)
    return "damaged: its manifest has no sha256";
  if (!read_field(&m, e, "signature", line, sizeof(line))) return "damaged: its manifest has no signature";
  unsigned long long sig_n = strtoull(line, &end, 10);
  if (*end != '\0' || sig_n > (unsigned long long)(e - m) || (size_t)(e - m) != sig_n + 1 || m[sig_n] != '\n')
    return "damaged: its manifest's signature is cut short";
  char have[65];
  entry_digest(key, data, n, m, (size_t)sig_n, have);
  if (strcmp(have, digest) != 0) return "damaged or modified: its content does not match the SHA-256 in its manifest";
  *sig = stela_strndup(m, (size_t)sig_n);
  if (*sig == NULL) return "out of memory";
  *elf_n = n;
  return NULL;
}

/* Reads the whole file at fd (size bytes by fstat); false if it changed
   size under us. */
static bool read_all(int fd, unsigned char* buf, size_t size) {
  size_t got = 0;
  while (got < size) {
    ssize_t r = pread(fd, buf + got, size - got, (off_t)got);
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) return false;
    got += (size_t)r;
  }
  unsigned char extra;
  return pread(fd, &extra, 1, (off_t)size) == 0;
}

PJRT_Error* stela_read_file(const char* path, unsigned char** data, size_t* n, int* fd_out) {
  int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0)
    return stela_error(PJRT_Error_Code_INTERNAL, FN ": cannot open the compiled object %s: %s", path, strerror(errno));
  struct stat st;
  PJRT_Error* err = NULL;
  unsigned char* buf = NULL;
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size > MAX_ENTRY) {
    err = stela_error(PJRT_Error_Code_INTERNAL, FN ": the compiled object %s is not a regular file of at most 2 GiB",
                      path);
  } else if ((buf = malloc((size_t)st.st_size + 1)) == NULL) {
    err = stela_oom();
  } else if (!read_all(fd, buf, (size_t)st.st_size)) {
    err = stela_error(PJRT_Error_Code_INTERNAL, FN ": cannot read the compiled object %s (it changed size?)", path);
  }
  if (err != NULL) {
    free(buf);
    close(fd);
    return err;
  }
  *data = buf;
  *n = (size_t)st.st_size;
  *fd_out = fd;
  return NULL;
}

void stela_cache_drop(stela_cache* c, const char* key, const char* why) {
  char name[80];
  snprintf(name, sizeof(name), "%s.so", key);
  if (unlinkat(c->objects_fd, name, 0) != 0 && errno == EISDIR) unlinkat(c->objects_fd, name, AT_REMOVEDIR);
  stela_cache_warn("the compile cache entry %s/%s was not loaded: %s; removed it, compiling again", c->objects, name,
                   why);
}

int stela_cache_get(stela_cache* c, const char* key, unsigned char** elf, size_t* elf_n, char** sig, int* fd_out) {
  char name[80];
  snprintf(name, sizeof(name), "%s.so", key);
  int fd = openat(c->objects_fd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) {
    if (errno == ENOENT) return 0;
    if (errno == ELOOP) {
      stela_cache_drop(c, key, "it is a symbolic link (entries are never followed)");
      return 0;
    }
    char why[160];
    snprintf(why, sizeof(why), "cannot open it: %s", strerror(errno));
    stela_cache_drop(c, key, why);
    return 0;
  }
  char why[256];
  const char* bad = NULL;
  struct stat st;
  unsigned char* buf = NULL;
  if (fstat(fd, &st) != 0) {
    snprintf(why, sizeof(why), "fstat: %s", strerror(errno));
    bad = why;
  } else if (!S_ISREG(st.st_mode)) {
    bad = "it is not a regular file";
  } else if (st.st_uid != geteuid()) {
    snprintf(why, sizeof(why), "it is owned by user %u, not by you (user %u)", (unsigned)st.st_uid,
             (unsigned)geteuid());
    bad = why;
  } else if (st.st_mode & (S_IWGRP | S_IWOTH)) {
    snprintf(why, sizeof(why), "it is writable by group or others (mode %04o)", (unsigned)(st.st_mode & 07777));
    bad = why;
  } else if (st.st_size > MAX_ENTRY) {
    bad = "it is larger than 2 GiB";
  } else if ((buf = malloc((size_t)st.st_size + 1)) == NULL) {
    close(fd);
    return 0; /* out of memory: compile instead, keep the entry */
  } else if (!read_all(fd, buf, (size_t)st.st_size)) {
    bad = "it changed size while being read";
  } else {
    bad = check_entry(buf, (size_t)st.st_size, key, elf_n, sig, why, sizeof(why));
  }
  if (bad != NULL) {
    free(buf);
    close(fd);
    stela_cache_drop(c, key, bad);
    return 0;
  }
  futimens(fd, NULL); /* the entry's time of last use, for the LRU limit */
  *elf = buf;
  *fd_out = fd;
  return 1;
}

/* ---- Loading verified bytes ---- */

/* dlopen of /proc/self/fd/<fd>. glibc finds an already loaded object by
   its name before it opens the file, so no two loaded objects may share
   a name: the descriptor an object was loaded through stays open as long
   as the object is loaded (*keep, closed after dlclose), which keeps its
   number, hence its name, unique. A name still held by an object that
   was closed but not unloaded (RTLD_NOLOAD finds it) is skipped by
   loading through a duplicate with a higher number. */
static void* dlopen_fd(int fd, int* keep, char** why) {
  int cur = fcntl(fd, F_DUPFD_CLOEXEC, 0);
  for (int tries = 0; cur >= 0; tries++) {
    char name[64];
    snprintf(name, sizeof(name), "/proc/self/fd/%d", cur);
    void* old = dlopen(name, RTLD_LAZY | RTLD_NOLOAD);
    if (old == NULL) {
      void* h = dlopen(name, RTLD_NOW | RTLD_LOCAL);
      if (h == NULL) {
        const char* e = dlerror();
        *why = stela_strdup(e ? e : "dlopen failed");
        close(cur);
        return NULL;
      }
      *keep = cur;
      return h;
    }
    dlclose(old);
    int next = tries < 64 ? fcntl(fd, F_DUPFD_CLOEXEC, cur + 1) : -1;
    close(cur);
    cur = next;
  }
  *why = stela_strdup("no free descriptor number to load the object through");
  return NULL;
}

void* stela_dlopen_verified(const unsigned char* data, size_t n, int file_fd, int* keep, char** why) {
  *why = NULL;
  *keep = -1;
  int mfd = memfd_create("stela-program", MFD_CLOEXEC | MFD_ALLOW_SEALING);
  if (mfd >= 0) {
    size_t done = 0;
    while (done < n) {
      ssize_t w = write(mfd, data + done, n - done);
      if (w < 0 && errno == EINTR) continue;
      if (w <= 0) break;
      done += (size_t)w;
    }
    if (done == n) {
      /* Sealed: the mapped bytes are the verified ones for good (no
         write, no truncation, hence no SIGBUS). */
      fcntl(mfd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_WRITE | F_SEAL_SEAL);
      void* h = dlopen_fd(mfd, keep, why);
      close(mfd);
      if (h != NULL) return h;
      /* memfds may be mapped no-exec (vm.memfd_noexec): try the file. */
      free(*why);
      *why = NULL;
    } else {
      close(mfd);
    }
  }
  /* No memfd: the verified file itself, through the descriptor that was
     read (the inode checked, whatever its name points at now). */
  return dlopen_fd(file_fd, keep, why);
}

/* ---- Writing entries and the size limit ---- */

static bool write_all(int fd, const void* data, size_t n) {
  const char* p = data;
  while (n > 0) {
    ssize_t w = write(fd, p, n);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) return false;
    p += w;
    n -= (size_t)w;
  }
  return true;
}

void stela_cache_put(stela_cache* c, const char* key, const unsigned char* elf, size_t n, const char* sig) {
  static atomic_long counter;
  char tmp[128], name[80];
  snprintf(tmp, sizeof(tmp), ".tmp-%.16s-%ld-%ld", key, (long)getpid(), atomic_fetch_add(&counter, 1));
  snprintf(name, sizeof(name), "%s.so", key);
  size_t sig_n = strlen(sig);
  char digest[65];
  entry_digest(key, elf, n, sig, sig_n, digest);
  char* head = stela_asprintf("%s\nkey %s\nsize %zu\nsha256 %s\nsignature %zu\n", entry_magic, key, n, digest, sig_n);
  if (head == NULL) return;
  size_t mlen = strlen(head) + sig_n + 1;
  char footer[FOOTER_LEN + 1];
  snprintf(footer, sizeof(footer), "stela-manifest %08x\n", (unsigned)mlen);
  int fd = openat(c->objects_fd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
  bool ok = fd >= 0 && write_all(fd, elf, n) && write_all(fd, head, strlen(head)) && write_all(fd, sig, sig_n) &&
            write_all(fd, "\n", 1) && write_all(fd, footer, FOOTER_LEN) && fsync(fd) == 0;
  int e = errno;
  if (fd >= 0 && close(fd) != 0 && ok) ok = false, e = errno;
  if (ok && renameat(c->objects_fd, tmp, c->objects_fd, name) != 0) ok = false, e = errno;
  if (ok) {
    fsync(c->objects_fd); /* the rename itself */
  } else {
    if (fd >= 0) unlinkat(c->objects_fd, tmp, 0);
    stela_cache_warn("cannot write the compile cache entry %s/%s: %s (the program runs; it is compiled again next time)",
                     c->objects, name, strerror(e));
  }
  free(head);
}

typedef struct {
  char name[80];
  int64_t size;
  struct timespec used;
} entry_info;

static int by_use(const void* a, const void* b) {
  const entry_info *x = a, *y = b;
  if (x->used.tv_sec != y->used.tv_sec) return x->used.tv_sec < y->used.tv_sec ? -1 : 1;
  if (x->used.tv_nsec != y->used.tv_nsec) return x->used.tv_nsec < y->used.tv_nsec ? -1 : 1;
  return strcmp(x->name, y->name);
}

static int rm_one(const char* path, const struct stat* st, int flag, struct FTW* f) {
  (void)st, (void)flag, (void)f;
  remove(path);
  return 0;
}

void stela_remove_tree(const char* dir) { nftw(dir, rm_one, 16, FTW_DEPTH | FTW_PHYS); }

/* The size ledger, objects/.size: "<bytes> <time of the last full scan>",
   the entries' total as last counted plus every entry written since.
   Without it each compile that wrote an entry stat'ed every entry (50,000
   files, 1.1 GB, were a fifth of a compile's time once the cache had
   filled). It can only overcount (an entry rewritten, or removed by a
   hand, a bad-entry check or `stela cache clear`, which removes the
   ledger too): an overcount brings the next full scan sooner, and that
   scan writes the true total. Updates hold an flock, so concurrent
   writers do not lose each other's bytes. */
static int ledger_open(const stela_cache* c, int64_t* bytes, int64_t* scanned) {
  *bytes = -1, *scanned = 0;
  int fd = openat(c->objects_fd, ".size", O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);
  if (fd < 0) return -1;
  if (flock(fd, LOCK_EX) != 0) {
    close(fd);
    return -1;
  }
  char buf[64];
  ssize_t r = pread(fd, buf, sizeof(buf) - 1, 0);
  if (r > 0) {
    buf[r] = '\0';
    long long b, t;
    if (sscanf(buf, "%lld %lld", &b, &t) == 2 && b >= 0) *bytes = b, *scanned = t;
  }
  return fd;
}

static void ledger_write(int fd, int64_t bytes, int64_t scanned) {
  char buf[64];
  int n = snprintf(buf, sizeof(buf), "%" PRId64 " %" PRId64 "\n", bytes, scanned);
  if (ftruncate(fd, 0) == 0 && pwrite(fd, buf, (size_t)n, 0) != n) {
    /* A short ledger reads as none: the next trim scans. */
  }
}

static void trim_scan(stela_cache* c, const char* keep, time_t now, int64_t* total_out);

/* stela_cache_trim keeps the cache under its limit after the entry keep
   was written: it adds the entry to the ledger and scans the directory
   only when the ledger says the cache is over its limit or the last scan
   is over LEDGER_SECONDS old. A scan that removes entries goes down to
   nine tenths of the limit, so that a full cache is not scanned again on
   each of the next writes. */
void stela_cache_trim(stela_cache* c, const char* keep) {
  time_t now = time(NULL);
  int64_t bytes, scanned;
  int lfd = ledger_open(c, &bytes, &scanned);
  if (lfd >= 0 && bytes >= 0 && now - scanned < LEDGER_SECONDS && now >= scanned) {
    char name[80];
    struct stat st;
    snprintf(name, sizeof(name), "%s.so", keep);
    if (fstatat(c->objects_fd, name, &st, AT_SYMLINK_NOFOLLOW) == 0) bytes += (int64_t)st.st_size;
    if (c->max_bytes <= 0 || bytes <= c->max_bytes) {
      ledger_write(lfd, bytes, scanned);
      close(lfd); /* and its lock */
      return;
    }
  }
  int64_t total = -1;
  trim_scan(c, keep, now, &total);
  if (lfd >= 0) {
    if (total >= 0) ledger_write(lfd, total, (int64_t)now);
    close(lfd);
  }
}

static void trim_scan(stela_cache* c, const char* keep, time_t now, int64_t* total_out) {
  /* Temporary directories of compiles whose process died. */
  DIR* d = opendir(c->tmp);
  if (d != NULL) {
    struct dirent* de;
    while ((de = readdir(d)) != NULL) {
      struct stat st;
      if (de->d_name[0] == '.' || fstatat(dirfd(d), de->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0) continue;
      if (now - st.st_mtime < STALE_TMP_SECONDS) continue;
      char* p = stela_asprintf("%s/%s", c->tmp, de->d_name);
      if (p != NULL) stela_remove_tree(p);
      free(p);
    }
    closedir(d);
  }
  int fd = fcntl(c->objects_fd, F_DUPFD_CLOEXEC, 0);
  if (fd < 0) return;
  d = fdopendir(fd);
  if (d == NULL) {
    close(fd);
    return;
  }
  rewinddir(d);
  entry_info* es = NULL;
  size_t n = 0, cap = 0;
  int64_t total = 0;
  struct dirent* de;
  char keep_name[80];
  snprintf(keep_name, sizeof(keep_name), "%s.so", keep);
  while ((de = readdir(d)) != NULL) {
    struct stat st;
    if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0) continue;
    if (fstatat(fd, de->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0) continue;
    if (strncmp(de->d_name, ".tmp-", 5) == 0) {
      if (now - st.st_mtime >= STALE_TMP_SECONDS) unlinkat(fd, de->d_name, 0); /* a writer that died */
      continue;
    }
    size_t len = strlen(de->d_name);
    if (!S_ISREG(st.st_mode) || len < 4 || len >= sizeof(es[0].name) || strcmp(de->d_name + len - 3, ".so") != 0)
      continue;
    total += (int64_t)st.st_size;
    if (strcmp(de->d_name, keep_name) == 0) continue;
    if (n == cap) {
      cap = cap ? 2 * cap : 64;
      entry_info* more = realloc(es, cap * sizeof(*es));
      if (more == NULL) break;
      es = more;
    }
    memcpy(es[n].name, de->d_name, len + 1);
    es[n].size = (int64_t)st.st_size;
    es[n].used = st.st_mtim;
    n++;
  }
  if (c->max_bytes > 0 && total > c->max_bytes) {
    int64_t low = c->max_bytes - c->max_bytes / 10;
    qsort(es, n, sizeof(*es), by_use);
    for (size_t i = 0; i < n && total > low; i++)
      if (unlinkat(fd, es[i].name, 0) == 0 || errno == ENOENT) total -= es[i].size;
  }
  *total_out = de == NULL ? total : -1; /* -1: the listing stopped early */
  free(es);
  closedir(d);
}

PJRT_Error* stela_compile_dir(const stela_cache* c, char** out) {
  char* dir;
  if (c->tmp != NULL) {
    dir = stela_asprintf("%s/compile-XXXXXX", c->tmp);
  } else {
    const char* tmp = getenv("TMPDIR");
    dir = stela_asprintf("%s/stela-compile-XXXXXX", tmp && *tmp ? tmp : "/tmp");
  }
  if (dir == NULL || mkdtemp(dir) == NULL) {
    PJRT_Error* err =
        stela_error(PJRT_Error_Code_INTERNAL, FN ": cannot make a temporary directory %s: %s", dir ? dir : "", strerror(errno));
    free(dir);
    return err;
  }
  *out = dir;
  return NULL;
}
