#include "textflag.h"

// func callerFP() unsafe.Pointer
//
// The frame pointer (BP) of the function that calls callerFP: callerFP
// has no frame of its own (NOFRAME), so BP is still its caller's.
TEXT ·callerFP(SB),NOSPLIT|NOFRAME,$0-8
	MOVQ	BP, ret+0(FP)
	RET
