package tokenizer

import (
	"strings"
	"sync"
	"sync/atomic"
)

const (
	cacheEntries = 1 << 16 // words; the cache stops growing when full
	cacheWordLen = 256     // longer words are not cached
)

// wordCache holds the ids of words encoded before. Reads go to an
// immutable snapshot without locks or atomics per word; new words go to a
// locked pending map, published into a new snapshot when it has grown by
// a quarter (so copying costs O(1) per word, amortized).
type wordCache struct {
	snap    atomic.Pointer[map[string][]int32]
	mu      sync.Mutex
	pending map[string][]int32
}

// snapshot returns the published words (nil before the first publish).
func (c *wordCache) snapshot() map[string][]int32 {
	if p := c.snap.Load(); p != nil {
		return *p
	}
	return nil
}

// lookup returns the current snapshot and the ids of w, published or
// pending.
func (c *wordCache) lookup(w string) (map[string][]int32, []int32, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	snap := c.snapshot()
	if ids, ok := snap[w]; ok {
		return snap, ids, true
	}
	ids, ok := c.pending[w]
	return snap, ids, ok
}

// add caches the ids of w (a copy of w: the caller's may be a piece of a
// large text).
func (c *wordCache) add(w string, ids []int32) {
	c.mu.Lock()
	defer c.mu.Unlock()
	snap := c.snapshot()
	if len(snap)+len(c.pending) >= cacheEntries {
		return
	}
	if _, ok := snap[w]; ok {
		return
	}
	if c.pending == nil {
		c.pending = map[string][]int32{}
	}
	c.pending[strings.Clone(w)] = ids
	if len(c.pending) >= max(64, len(snap)/4) {
		next := make(map[string][]int32, len(snap)+len(c.pending))
		for k, v := range snap {
			next[k] = v
		}
		for k, v := range c.pending {
			next[k] = v
		}
		c.snap.Store(&next)
		c.pending = nil
	}
}

// reset empties the cache.
func (c *wordCache) reset() {
	c.mu.Lock()
	c.snap.Store(nil)
	c.pending = nil
	c.mu.Unlock()
}
