//go:build !linux

package tokenizer

import "time"

func threadCPU() time.Duration { return 0 }
