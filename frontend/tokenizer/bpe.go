package tokenizer

import (
	"container/heap"
)

// merge is one BPE merge rule: the pair's rank (its line in merges.txt,
// lower merges first) and the id of the merged token.
type merge struct {
	rank int32
	id   int32
}

func pairKey(a, b int32) uint64 { return uint64(uint32(a))<<32 | uint64(uint32(b)) }

// bpe appends to out the ids of one pre-tokenized piece (raw bytes).
func (t *Tokenizer) bpe(out []int, piece string) []int {
	if t.ignoreMerges {
		if id, ok := t.rawVocab[piece]; ok {
			return append(out, int(id))
		}
	}
	syms := make([]int32, 0, 16)
	for i := 0; i < len(piece); i++ {
		id := t.byteID[piece[i]]
		if id >= 0 {
			syms = append(syms, id)
			continue
		}
		// A byte whose symbol is not in the vocabulary: byte fallback's
		// <0xXX> tokens of the symbol's UTF-8 bytes, else the unknown token
		// (consecutive ones fused with fuse_unk), else dropped, as Hugging
		// Face's BPE does.
		if t.byteFallback && t.fallback[piece[i]] != nil {
			syms = append(syms, t.fallback[piece[i]]...)
			continue
		}
		if t.unk >= 0 {
			if t.fuseUnk && len(syms) > 0 && syms[len(syms)-1] == t.unk {
				continue
			}
			syms = append(syms, t.unk)
		}
	}
	if len(syms) > 48 {
		syms = t.mergeHeap(syms)
	} else {
		syms = t.mergeScan(syms)
	}
	for _, s := range syms {
		out = append(out, int(s))
	}
	return out
}

// mergeScan applies merges to a short word: repeatedly the pair of lowest
// rank, the leftmost of equals (quadratic, fast for the usual short words).
func (t *Tokenizer) mergeScan(syms []int32) []int32 {
	if len(syms) < 2 {
		return syms
	}
	// pairs[i] is the merge of syms[i] and syms[i+1] (rank -1: none).
	var buf [64]merge
	pairs := buf[:0]
	for i := 0; i+1 < len(syms); i++ {
		pairs = append(pairs, t.pairMerge(syms[i], syms[i+1]))
	}
	for {
		at := -1
		for i, m := range pairs {
			if m.rank >= 0 && (at < 0 || m.rank < pairs[at].rank) {
				at = i
			}
		}
		if at < 0 {
			return syms
		}
		syms[at] = pairs[at].id
		syms = append(syms[:at+1], syms[at+2:]...)
		pairs = append(pairs[:at], pairs[at+1:]...)
		if at > 0 {
			pairs[at-1] = t.pairMerge(syms[at-1], syms[at])
		}
		if at < len(pairs) {
			pairs[at] = t.pairMerge(syms[at], syms[at+1])
		}
	}
}

// pairMerge returns the merge of a and b, rank -1 when there is none.
func (t *Tokenizer) pairMerge(a, b int32) merge {
	if m, ok := t.merges[pairKey(a, b)]; ok {
		return m
	}
	return merge{rank: -1}
}

// mergeHeap applies merges to a long word with a priority queue of
// candidate pairs over a linked list of symbols (n log n), as Hugging Face's
// BPE does; the result equals mergeScan's.
func (t *Tokenizer) mergeHeap(syms []int32) []int32 {
	n := len(syms)
	if n < 2 {
		return syms
	}
	prev := make([]int32, n)
	nxt := make([]int32, n)
	alive := make([]bool, n)
	for i := range syms {
		prev[i], nxt[i], alive[i] = int32(i-1), int32(i+1), true
	}
	nxt[n-1] = -1
	q := &pairQueue{}
	push := func(i int32) {
		j := nxt[i]
		if j < 0 {
			return
		}
		if m, ok := t.merges[pairKey(syms[i], syms[j])]; ok {
			heap.Push(q, candidate{m.rank, i, m.id})
		}
	}
	for i := 0; i+1 < n; i++ {
		push(int32(i))
	}
	for q.Len() > 0 {
		c := heap.Pop(q).(candidate)
		i := c.pos
		j := nxt[i]
		if !alive[i] || j < 0 {
			continue
		}
		// Stale: the pair at i changed since c was queued.
		if m, ok := t.merges[pairKey(syms[i], syms[j])]; !ok || m.id != c.id || m.rank != c.rank {
			continue
		}
		syms[i] = c.id
		alive[j] = false
		nxt[i] = nxt[j]
		if nxt[j] >= 0 {
			prev[nxt[j]] = i
		}
		if prev[i] >= 0 {
			push(prev[i])
		}
		push(i)
	}
	out := syms[:0]
	for i := int32(0); i >= 0; i = nxt[i] {
		out = append(out, syms[i])
	}
	return out
}

type candidate struct {
	rank, pos, id int32
}

type pairQueue []candidate

func (q pairQueue) Len() int { return len(q) }
func (q pairQueue) Less(a, b int) bool {
	if q[a].rank != q[b].rank {
		return q[a].rank < q[b].rank
	}
	return q[a].pos < q[b].pos
}
func (q pairQueue) Swap(a, b int) { q[a], q[b] = q[b], q[a] }
func (q *pairQueue) Push(x any)   { *q = append(*q, x.(candidate)) }
func (q *pairQueue) Pop() any {
	old := *q
	x := old[len(old)-1]
	*q = old[:len(old)-1]
	return x
}
