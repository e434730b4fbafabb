//go:build !unix

package safetensors

// mapFile reads the file whole: this platform's build does not map files.
func mapFile(path string) (data []byte, unmap func() error, err error) {
	return readWhole(path)
}
