package ir

import "testing"

func TestShardingRules(t *testing.T) {
	for _, c := range []struct{ src, want string }{
		{`func @f(%0: f32[8,16], %1: f32[16,4]) -> f32[8,4] {
  %2 = dot_general %0, %1 {lhs_batch = [], rhs_batch = [], lhs_contract = [1], rhs_contract = [0]} : f32[8,4]
  return %2
}`, "([i, k], [k, j]) -> ([i, j]) {i=8, j=4, k=16} reduction={k}"},
		{`func @f(%0: f32[2,8,16], %1: f32[2,16,4]) -> f32[2,8,4] {
  %2 = dot_general %0, %1 {lhs_batch = [0], rhs_batch = [0], lhs_contract = [2], rhs_contract = [1]} : f32[2,8,4]
  return %2
}`, "([i, j, l], [i, l, k]) -> ([i, j, k]) {i=2, j=8, k=4, l=16} reduction={l}"},
		{`func @f(%0: f32[6,4]) -> f32[24] {
  %1 = reshape %0 {shape = [24]} : f32[24]
  return %1
}`, "([i, j]) -> ([i j]) {i=6, j=4}"},
		{`func @f(%0: f32[24]) -> f32[2,12] {
  %1 = reshape %0 {shape = [2, 12]} : f32[2,12]
  return %1
}`, "([i j]) -> ([i, j]) {i=2, j=12}"},
		{`func @f(%0: f32[4,6]) -> f32[6,4] {
  %1 = reshape %0 {shape = [6, 4]} : f32[6,4]
  return %1
}`, "([i, _]) -> ([i, _]) {i=2}"},
		{`func @f(%0: f32[4], %1: f32[]) -> f32[] {
  %2 = reduce %0, %1 {dims = [0]} (%0: f32[], %1: f32[]) {
    %2 = maximum %0, %1 : f32[]
    return %2
  } : f32[]
  return %2
}`, "([i], []) -> ([]) {i=4} reduction={i}"},
		{`func @f(%0: f32[1,4]) -> f32[8,3,4] {
  %1 = broadcast_in_dim %0 {shape = [8, 3, 4], dims = [0, 2]} : f32[8,3,4]
  return %1
}`, "([_, k]) -> ([i, j, k]) {i=8, j=3, k=4}"},
		{`func @f(%0: i1[], %1: f32[4,2], %2: f32[4,2]) -> f32[4,2] {
  %3 = select %0, %1, %2 : f32[4,2]
  return %3
}`, "([], [i, j], [i, j]) -> ([i, j]) {i=4, j=2}"},
		{`func @f(%0: f32[4,6]) -> f32[4,3] {
  %1 = slice %0 {start = [0, 1], limit = [4, 4], stride = [1, 1]} : f32[4,3]
  return %1
}`, "([i, _]) -> ([i, _]) {i=4}"},
	} {
		f, err := ParseFunc(c.src)
		if err != nil {
			t.Fatal(err)
		}
		r := f.Body[len(f.Body)-1].ShardingRule()
		if r == nil {
			t.Errorf("%s: no rule", c.src)
			continue
		}
		if got := r.String(); got != c.want {
			t.Errorf("rule of\n%s\n= %s\nwant %s", c.src, got, c.want)
		}
	}
}
