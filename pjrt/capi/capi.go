package capi

import _ "embed"

// Header is the text of stela_pjrt.h.
//
//go:embed stela_pjrt.h
var Header string

// HeaderName is the file name C sources include: #include "stela_pjrt.h".
const HeaderName = "stela_pjrt.h"

// The PJRT C API version the header declares (PJRT_API_MAJOR and
// PJRT_API_MINOR). A plugin built with it reports this version, and a
// client built with it sends struct sizes of this version.
const (
	APIMajor = 0
	APIMinor = 81
)
