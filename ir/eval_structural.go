package ir

func evalBroadcastInDim(in *Instr, args []*Literal) ([]*Literal, error)     { return nil, errNoEval }
func evalReshape(in *Instr, args []*Literal) ([]*Literal, error)            { return nil, errNoEval }
func evalTranspose(in *Instr, args []*Literal) ([]*Literal, error)          { return nil, errNoEval }
func evalSlice(in *Instr, args []*Literal) ([]*Literal, error)              { return nil, errNoEval }
func evalDynamicSlice(in *Instr, args []*Literal) ([]*Literal, error)       { return nil, errNoEval }
func evalDynamicUpdateSlice(in *Instr, args []*Literal) ([]*Literal, error) { return nil, errNoEval }
func evalConcatenate(in *Instr, args []*Literal) ([]*Literal, error)        { return nil, errNoEval }
func evalPad(in *Instr, args []*Literal) ([]*Literal, error)                { return nil, errNoEval }
func evalReverse(in *Instr, args []*Literal) ([]*Literal, error)            { return nil, errNoEval }
func evalDotGeneral(in *Instr, args []*Literal) ([]*Literal, error)         { return nil, errNoEval }
func evalReduce(in *Instr, args []*Literal) ([]*Literal, error)             { return nil, errNoEval }
func evalReduceWindow(in *Instr, args []*Literal) ([]*Literal, error)       { return nil, errNoEval }
func evalConvolution(in *Instr, args []*Literal) ([]*Literal, error)        { return nil, errNoEval }
func evalGather(in *Instr, args []*Literal) ([]*Literal, error)             { return nil, errNoEval }
func evalScatter(in *Instr, args []*Literal) ([]*Literal, error)            { return nil, errNoEval }
func evalWhile(in *Instr, args []*Literal) ([]*Literal, error)              { return nil, errNoEval }
func evalCase(in *Instr, args []*Literal) ([]*Literal, error)               { return nil, errNoEval }
func evalCustomCall(in *Instr, args []*Literal) ([]*Literal, error)         { return nil, errNoEval }
func evalComposite(in *Instr, args []*Literal) ([]*Literal, error)          { return nil, errNoEval }
