package ir

// The two ways CallerLoc finds the user's frame, for TestCallerLocWalk.

//go:noinline
func FPCallerLocForTest() Loc {
	if !fpWalk {
		return callersLoc()
	}
	return fpCallerLoc(callerFP())
}

//go:noinline
func CallersLocForTest() Loc { return callersLoc() }
