// Package npy reads and writes NumPy's .npy files as *ir.Literal values.
//
// In: a .npy stream (format version 1.0, 2.0 or 3.0, as numpy.save and
// numpy.lib.format write them). Out: an *ir.Literal of the same shape, in
// row-major order. And the reverse: Write turns a literal into a version 1.0
// file (2.0 when the header needs more than 65535 bytes), little-endian,
// C order, with numpy's own header layout (padded with spaces to a multiple
// of 64 bytes and ended by a newline), so numpy.load reads it back.
//
// The element types, with the descr numpy writes for each:
//
//	i1 '|b1'   si8 '|i1'  si16 '<i2'  si32 '<i4'  si64 '<i8'
//	           ui8 '|u1'  ui16 '<u2'  ui32 '<u4'  ui64 '<u8'
//	f16 '<f2'  f32 '<f4'  f64 '<f8'   c64 '<c8'   c128 '<c16'
//	bf16 '<V2' (a convention, below)
//
// Reading also accepts big-endian descrs ('>f4', ...), which it byte-swaps
// (per part for complex numbers), '=' as little-endian (numpy never writes
// '=' to a file: it spells out the byte order of the machine that saved it),
// and Fortran-order arrays, which it transposes into row-major order.
//
// bfloat16. numpy has no bfloat16; ml_dtypes' bfloat16 saves as '<V2', an
// opaque 2-byte void that carries no element type. Stela's only 2-byte type
// without a numpy descr is bf16, so Read takes any 2-byte void ('<V2',
// '|V2', '>V2' byte-swapped) as bf16 bits, and Write writes bf16 as '<V2'.
// In Python, numpy.load(f).view(ml_dtypes.bfloat16) recovers the values,
// and numpy.save of an ml_dtypes.bfloat16 array gives a file Read takes as
// bf16. Voids of other sizes are rejected.
//
// The narrow types (si2, si4, ui2, ui4, the f8, f6 and f4 types). numpy
// has no descr for them either: ml_dtypes' int4, float8_e4m3fn, ... all
// save as '<V1', one element per byte, the value in the low bits. Write
// writes them as '|V1'; Read refuses a 1-byte void, which could be any of
// them, and ReadAs (ReadFileAs) reads one as the type the caller names.
// In Python, numpy.load(f).view(ml_dtypes.int4) recovers the values.
//
// Not supported, each rejected with an error naming the descr: structured
// dtypes (a list as descr), strings, objects, datetimes, float128 and
// complex256, and files pickled with allow_pickle. Read consumes exactly one
// array and leaves what follows it in the reader, so that several arrays
// saved one after another into one file read back in order.
package npy
