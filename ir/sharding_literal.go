package ir

import (
	"fmt"
	"reflect"
)

// ShardLiteral returns mesh device dev's piece of l laid out by sh over
// m (sh must fit l's type: Sharding.Check). Partial sums are not pieces
// of a literal: sh.Partial is ignored.
func ShardLiteral(l *Literal, m *Mesh, sh *Sharding, dev int) *Literal {
	lt := sh.ShardType(m, l.Type)
	out := Zeros(lt)
	copyBlock(out, l, blockOrigin(m, sh, lt, dev), false)
	return out
}

// UnshardLiteral assembles a literal of type t from the pieces of the
// mesh's devices (one per device, in mesh order) laid out by sh. Where
// several devices hold the same piece it takes the first's.
func UnshardLiteral(pieces []*Literal, m *Mesh, sh *Sharding, t Type) (*Literal, error) {
	if len(pieces) != m.NumDevices() {
		return nil, fmt.Errorf("unshard: %d pieces for a mesh of %d devices", len(pieces), m.NumDevices())
	}
	lt := sh.ShardType(m, t)
	out := Zeros(t)
	done := map[string]bool{}
	for dev, p := range pieces {
		if p == nil || !p.Type.Equal(lt) {
			return nil, fmt.Errorf("unshard: device %d's piece is %v, want %v", dev, typeOrNil(p), lt)
		}
		org := blockOrigin(m, sh, lt, dev)
		k := fmt.Sprint(org)
		if done[k] {
			continue
		}
		done[k] = true
		copyBlock(p, out, org, true)
	}
	return out, nil
}

func typeOrNil(l *Literal) any {
	if l == nil {
		return "nil"
	}
	return l.Type
}

// blockOrigin is where device dev's piece (of local type lt) starts in
// the global array.
func blockOrigin(m *Mesh, sh *Sharding, lt Type, dev int) []int {
	org := make([]int, lt.Rank())
	for d, axes := range sh.Dims {
		if len(axes) > 0 {
			org[d] = m.Index(dev, axes) * lt.Shape[d]
		}
	}
	return org
}

// copyBlock copies between the block b placed at org in the global
// literal g and g: into g when toGlobal, else into b.
func copyBlock(b, g *Literal, org []int, toGlobal bool) {
	copyRows(b, g, org, toGlobal)
}

// copyRows: blk is the block, glob the global literal.
func copyRows(blk, glob *Literal, org []int, toGlobal bool) {
	bs, gs := blk.Type.Shape, glob.Type.Shape
	r := len(bs)
	bv, gv := reflect.ValueOf(blk.Data), reflect.ValueOf(glob.Data)
	if r == 0 {
		if toGlobal {
			gv.Index(0).Set(bv.Index(0))
		} else {
			bv.Index(0).Set(gv.Index(0))
		}
		return
	}
	if blk.Type.NumElements() == 0 {
		return
	}
	row := bs[r-1]
	idx := make([]int, r) // block index, last dim 0
	for {
		bo, goff := 0, 0
		for d := 0; d < r; d++ {
			bo = bo*bs[d] + idx[d]
			goff = goff*gs[d] + idx[d] + org[d]
		}
		if toGlobal {
			reflect.Copy(gv.Slice(goff, goff+row), bv.Slice(bo, bo+row))
		} else {
			reflect.Copy(bv.Slice(bo, bo+row), gv.Slice(goff, goff+row))
		}
		d := r - 2
		for ; d >= 0; d-- {
			idx[d]++
			if idx[d] < bs[d] {
				break
			}
			idx[d] = 0
		}
		if d < 0 {
			return
		}
	}
}
