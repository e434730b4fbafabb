package cpu

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// The compile cache on disk, as the plugin (csrc/cache.c) writes and
// checks it; docs/cache.md has the format and the trust model. This side
// serves `stela cache ls|clear|verify`.

const (
	entryMagic   = "stela-cpu-cache-entry 1"
	footerLen    = 24
	maxManifest  = 1 << 20
	maxEntrySize = 1 << 31
)

// CacheDir returns the compile cache root the plugin uses when no client
// option names one: $STELA_CACHE_DIR, else $XDG_CACHE_HOME/stela, else
// $HOME/.cache/stela.
func CacheDir() (string, error) {
	if d := os.Getenv("STELA_CACHE_DIR"); d != "" {
		return d, nil
	}
	if d := os.Getenv("XDG_CACHE_HOME"); strings.HasPrefix(d, "/") {
		return filepath.Join(d, "stela"), nil
	}
	if h := os.Getenv("HOME"); h != "" {
		return filepath.Join(h, ".cache", "stela"), nil
	}
	return "", errors.New("no compile cache directory: set STELA_CACHE_DIR, XDG_CACHE_HOME or HOME")
}

// CheckCacheDir checks that dir is safe to load code from, as the plugin
// does: a directory (symbolic links followed for the root only) owned by
// this user that neither its group nor others may write. The error says
// how to fix it.
func CheckCacheDir(dir string, root bool) error {
	return checkDir(dir, root, "compile cache directory")
}

func checkDir(dir string, root bool, what string) error {
	stat := os.Lstat
	if root {
		stat = os.Stat
	}
	fi, err := stat(dir)
	if err != nil {
		return err
	}
	if !fi.IsDir() {
		return fmt.Errorf("the %s %s is not a directory (or is a symbolic link): remove it", what, dir)
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return fmt.Errorf("%s: no owner information", dir)
	}
	if me := os.Geteuid(); int(st.Uid) != me {
		return fmt.Errorf("the %s %s is owned by user %d, not by you (user %d): code found there would be loaded and run. Use a directory of your own (STELA_CACHE_DIR, XDG_CACHE_HOME), or remove %s", what, dir, st.Uid, me, dir)
	}
	if m := st.Mode & 0o7777; m&0o022 != 0 {
		who := "its group"
		if m&0o002 != 0 {
			who = "others"
		}
		return fmt.Errorf("the %s %s is writable by %s (mode %04o): other users could plant code that Stela would load and run. Fix it with: chmod 700 %s", what, dir, who, m, dir)
	}
	return nil
}

// CacheEntry is one compiled object of the cache.
type CacheEntry struct {
	Key       string    // the cache key (64 hex digits), the file's name
	Path      string    // <root>/objects/<key>.so
	Size      int64     // the file's size, manifest included
	Used      time.Time // last compiled or loaded (the LRU order)
	Signature string    // the program's parameters and results (stela_signature)
	// Err is why the plugin would not load the entry (it removes such an
	// entry and compiles again); nil for a good one.
	Err error
}

// entryDigest is the SHA-256 over the format tag, the key, the object and
// its signature, each preceded by its length (8 bytes, little-endian):
// what the manifest's sha256 line holds.
func entryDigest(key string, elf []byte, sig string) string {
	h := sha256.New()
	field := func(b []byte) {
		var n [8]byte
		binary.LittleEndian.PutUint64(n[:], uint64(len(b)))
		h.Write(n[:])
		h.Write(b)
	}
	field([]byte(entryMagic))
	field([]byte(key))
	field(elf)
	field([]byte(sig))
	return hex.EncodeToString(h.Sum(nil))
}

// parseEntry checks an entry's bytes as the plugin does before loading
// it and returns its signature.
func parseEntry(data []byte, key string) (sig string, err error) {
	if len(data) < footerLen {
		return "", errors.New("truncated: too short to hold a manifest")
	}
	foot := data[len(data)-footerLen:]
	var mlen uint64
	if !bytes.HasPrefix(foot, []byte("stela-manifest ")) || foot[footerLen-1] != '\n' {
		return "", errors.New("truncated or damaged: no manifest at its end")
	}
	if mlen, err = strconv.ParseUint(string(foot[15:23]), 16, 32); err != nil {
		return "", errors.New("truncated or damaged: no manifest at its end")
	}
	if mlen > maxManifest || mlen > uint64(len(data)-footerLen) {
		return "", errors.New("damaged: its manifest's length is out of range")
	}
	n := len(data) - footerLen - int(mlen)
	m := string(data[n : len(data)-footerLen])
	elf := data[:n]
	rest, ok := strings.CutPrefix(m, entryMagic+"\n")
	if !ok {
		return "", errors.New("damaged: its manifest is not a Stela cache manifest (version 1)")
	}
	field := func(word string) (string, bool) {
		v, ok := strings.CutPrefix(rest, word+" ")
		if !ok {
			return "", false
		}
		i := strings.IndexByte(v, '\n')
		if i < 0 {
			return "", false
		}
		rest = v[i+1:]
		return v[:i], true
	}
	k, ok := field("key")
	if !ok {
		return "", errors.New("damaged: its manifest has no key")
	}
	if k != key {
		return "", fmt.Errorf("its manifest is for key %.16s..., another program's (a swapped object)", k)
	}
	if s, ok := field("size"); !ok || s != strconv.Itoa(n) {
		return "", errors.New("truncated or damaged: the object's size is not its manifest's")
	}
	digest, ok := field("sha256")
	if !ok || len(digest) != 64 {
		return "", errors.New("damaged: its manifest has no sha256")
	}
	s, ok := field("signature")
	sn, err := strconv.Atoi(s)
	if !ok || err != nil || sn < 0 || len(rest) != sn+1 || rest[sn] != '\n' {
		return "", errors.New("damaged: its manifest's signature is cut short")
	}
	sig = rest[:sn]
	if entryDigest(key, elf, sig) != digest {
		return "", errors.New("damaged or modified: its content does not match the SHA-256 in its manifest")
	}
	return sig, nil
}

// readEntry reads and checks one entry, never following a symbolic link.
func readEntry(path, key string) CacheEntry {
	e := CacheEntry{Key: key, Path: path}
	fail := func(err error) CacheEntry { e.Err = err; return e }
	fi, err := os.Lstat(path)
	if err != nil {
		return fail(err)
	}
	e.Size, e.Used = fi.Size(), fi.ModTime()
	if fi.Mode()&os.ModeSymlink != 0 {
		return fail(errors.New("it is a symbolic link (entries are never followed)"))
	}
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
	if err != nil {
		return fail(err)
	}
	defer f.Close()
	if fi, err = f.Stat(); err != nil {
		return fail(err)
	}
	st := fi.Sys().(*syscall.Stat_t)
	switch {
	case !fi.Mode().IsRegular():
		return fail(errors.New("it is not a regular file"))
	case int(st.Uid) != os.Geteuid():
		return fail(fmt.Errorf("it is owned by user %d, not by you (user %d)", st.Uid, os.Geteuid()))
	case st.Mode&0o022 != 0:
		return fail(fmt.Errorf("it is writable by group or others (mode %04o)", st.Mode&0o7777))
	case fi.Size() > maxEntrySize:
		return fail(errors.New("it is larger than 2 GiB"))
	}
	data := make([]byte, fi.Size())
	if _, err := f.ReadAt(data, 0); err != nil {
		return fail(fmt.Errorf("reading it: %v", err))
	}
	e.Signature, e.Err = parseEntry(data, key)
	return e
}

// ListCache checks every entry of the cache at root (least recently
// used first). A missing cache is empty.
func ListCache(root string) ([]CacheEntry, error) {
	if _, err := os.Stat(root); errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err := CheckCacheDir(root, true); err != nil {
		return nil, err
	}
	objects := filepath.Join(root, "objects")
	des, err := os.ReadDir(objects)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	if err := CheckCacheDir(objects, false); err != nil {
		return nil, err
	}
	var es []CacheEntry
	for _, d := range des {
		key, ok := strings.CutSuffix(d.Name(), ".so")
		if !ok || strings.HasPrefix(d.Name(), ".") {
			continue
		}
		es = append(es, readEntry(filepath.Join(objects, d.Name()), key))
	}
	sort.SliceStable(es, func(i, j int) bool { return es[i].Used.Before(es[j].Used) })
	return es, nil
}

// ClearCache removes every entry of the cache at root and the temporary
// files of compiles (not the root itself, nor the built plugin). It
// returns how many entries and bytes went.
func ClearCache(root string) (n int, size int64, err error) {
	if _, err := os.Stat(root); errors.Is(err, os.ErrNotExist) {
		return 0, 0, nil
	}
	if err := CheckCacheDir(root, true); err != nil {
		return 0, 0, err
	}
	for _, sub := range []string{"objects", "tmp"} {
		dir := filepath.Join(root, sub)
		des, err := os.ReadDir(dir)
		if errors.Is(err, os.ErrNotExist) {
			continue
		}
		if err != nil {
			return n, size, err
		}
		for _, d := range des {
			p := filepath.Join(dir, d.Name())
			if fi, err := os.Lstat(p); err == nil && sub == "objects" && strings.HasSuffix(d.Name(), ".so") {
				n++
				size += fi.Size()
			}
			if err := os.RemoveAll(p); err != nil {
				return n, size, err
			}
		}
	}
	return n, size, nil
}
