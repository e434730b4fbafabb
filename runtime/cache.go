package runtime

import (
	"container/list"
	"sync"
	"sync/atomic"
)

// execCache is a bounded LRU map from a key to a compiled program. An
// evicted program is only dropped from the map, never destroyed here:
// tensors' executables and other cache entries may still hold it, and the
// pjrt handle frees it when the last reference is collected.
type execCache struct {
	mu    sync.Mutex
	limit int
	ll    *list.List
	m     map[string]*list.Element
}

type cacheEntry struct {
	key string
	val *compiled
}

func newExecCache(limit int) *execCache {
	return &execCache{limit: limit, ll: list.New(), m: map[string]*list.Element{}}
}

// getBytes looks key up without allocating a string for it.
func (c *execCache) getBytes(key []byte) *compiled {
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.m[string(key)]; ok {
		c.ll.MoveToFront(e)
		return e.Value.(*cacheEntry).val
	}
	return nil
}

func (c *execCache) get(key string) *compiled {
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.m[key]; ok {
		c.ll.MoveToFront(e)
		return e.Value.(*cacheEntry).val
	}
	return nil
}

// put adds key → val, or returns the entry already there (a concurrent
// compile of the same program won).
func (c *execCache) put(key string, val *compiled) *compiled {
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.m[key]; ok {
		c.ll.MoveToFront(e)
		return e.Value.(*cacheEntry).val
	}
	c.m[key] = c.ll.PushFront(&cacheEntry{key: key, val: val})
	for c.ll.Len() > c.limit {
		old := c.ll.Back()
		c.ll.Remove(old)
		delete(c.m, old.Value.(*cacheEntry).key)
		stats.evictions.Add(1)
	}
	return val
}

// Stats counts the runtime's executable cache traffic, over all platforms.
type Stats struct {
	// OpHits and OpMisses count eager one-op dispatches that found or
	// did not find a compiled program for their key.
	OpHits, OpMisses int64
	// ProgramHits and ProgramMisses count lookups by program hash
	// (Device.Run, Compile, and eager misses).
	ProgramHits, ProgramMisses int64
	// Compiles counts programs compiled by a plugin (a plugin's own disk
	// cache may still have made a compile cheap).
	Compiles int64
	// Evictions counts programs dropped from the in-memory cache.
	Evictions int64
}

var stats struct {
	opHits, opMisses, progHits, progMisses, compiles, evictions atomic.Int64
}

// CacheStats returns the counters since the process started.
func CacheStats() Stats {
	return Stats{
		OpHits: stats.opHits.Load(), OpMisses: stats.opMisses.Load(),
		ProgramHits: stats.progHits.Load(), ProgramMisses: stats.progMisses.Load(),
		Compiles: stats.compiles.Load(), Evictions: stats.evictions.Load(),
	}
}
