// Package safetensors reads and writes safetensors files, Hugging Face's
// format for tensors (https://github.com/huggingface/safetensors), and
// saves and loads checkpoints of parameter trees in it.
//
// A file is an 8-byte little-endian length N, N bytes of JSON header, then
// the data region: the tensors' little-endian, row-major bytes. The header
// maps each tensor's name to its dtype, shape and data_offsets [begin, end)
// within the data region, and "__metadata__" to an object of strings:
//
//	{"__metadata__":{"step":"100"},"W":{"dtype":"F32","shape":[2,3],"data_offsets":[0,24]}}
//
// The dtypes and Stela's element types:
//
//	BOOL i1   U8 ui8   U16 ui16   U32 ui32   U64 ui64   F16 f16   F32 f32
//	          I8 si8   I16 si16   I32 si32   I64 si64   BF16 bf16 F64 f64
//
// Open also accepts the 8-bit floats (F8_E5M2, F8_E4M3, F8_E8M0), whose
// tensors Info describes but Literal cannot read; c64 and c128 have no
// dtype and cannot be written.
//
// Reading. Open memory-maps the file (reading it whole where mapping is not
// available) and checks the whole header before returning: the header
// length against the file, the JSON (duplicate names included), each
// tensor's dtype, shape and offsets (shape × dtype size must equal the
// offsets' span), and that the tensors tile the data region exactly, with
// no gap, no overlap and nothing after the last one. Every problem is an
// error naming the file and the tensor, never a panic, so files from
// anywhere can be opened. Literal copies one tensor out (one memmove on a
// little-endian machine); a mapped file that another process truncates is
// an error from Literal, not a crash. Parse reads a file held in memory.
//
// Writing. Write and WriteFile write the same bytes as the reference
// implementation's serializer for the same tensors: the data ordered by
// decreasing alignment then name (so that each tensor is aligned to its
// element size when the file is mapped), a compact header padded with
// spaces to a multiple of 8 bytes. WriteFile and Save write to a temporary
// file and rename it, so a crash while saving leaves the old file intact.
//
// Checkpoints. Save writes the tensor leaves of a parameter tree (package
// frontend/tree) under their paths ("Layers.0.W"), and Load reads them back
// into a new tree of a given tree's structure, each tensor placed on the
// device of the leaf it replaces. Python reads such a file with
// safetensors.numpy.load_file (or torch's), and Load takes a file Python
// wrote if its names are the tree's paths.
package safetensors
