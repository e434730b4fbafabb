package ir

import "errors"

var errNoEval = errors.New("evaluator: not implemented yet")

func evalConstant(in *Instr, args []*Literal) ([]*Literal, error)       { return nil, errNoEval }
func evalIota(in *Instr, args []*Literal) ([]*Literal, error)           { return nil, errNoEval }
func evalUnary(in *Instr, args []*Literal) ([]*Literal, error)          { return nil, errNoEval }
func evalBinary(in *Instr, args []*Literal) ([]*Literal, error)         { return nil, errNoEval }
func evalCompare(in *Instr, args []*Literal) ([]*Literal, error)        { return nil, errNoEval }
func evalSelect(in *Instr, args []*Literal) ([]*Literal, error)         { return nil, errNoEval }
func evalClamp(in *Instr, args []*Literal) ([]*Literal, error)          { return nil, errNoEval }
func evalConvert(in *Instr, args []*Literal) ([]*Literal, error)        { return nil, errNoEval }
func evalBitcastConvert(in *Instr, args []*Literal) ([]*Literal, error) { return nil, errNoEval }
