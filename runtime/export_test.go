package runtime

// NilBufferForTest is a typed nil Buffer, as a caller's nil *T stored in
// a Buffer interface is.
func NilBufferForTest() Buffer { return (*pjrtBuffer)(nil) }
