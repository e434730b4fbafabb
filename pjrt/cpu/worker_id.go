package cpu

import (
	"bytes"
	"debug/elf"
	"errors"
	"fmt"
	"os"
	"sync"

	"github.com/stela-ml/stela/pjrt"
)

// WorkerID returns the Go build ID of an executable: a hash of the inputs
// the Go toolchain built it from, the same for every build of the same
// sources. The plugin keys its compile cache by it (create option
// stela_worker_id), so that `go run` and test binaries, rebuilt into new
// paths every time, still find what an identical worker compiled before.
func WorkerID(path string) (string, error) {
	f, err := elf.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	sec := f.Section(".note.go.buildid")
	if sec == nil {
		return "", fmt.Errorf("%s: no Go build ID note", path)
	}
	data, err := sec.Data()
	if err != nil {
		return "", err
	}
	// An ELF note: namesz, descsz, type (4 bytes each, in the file's byte
	// order), the name "Go\x00\x00", then the build ID.
	if len(data) < 16 {
		return "", errors.New("short Go build ID note")
	}
	bo := f.ByteOrder
	namesz, descsz := bo.Uint32(data[0:]), bo.Uint32(data[4:])
	off := 12 + (int(namesz)+3)&^3
	if namesz != 4 || !bytes.Equal(data[12:15], []byte("Go\x00")) || off+int(descsz) > len(data) {
		return "", errors.New("malformed Go build ID note")
	}
	return string(data[off : off+int(descsz)]), nil
}

var workerOnce struct {
	sync.Once
	opts []pjrt.NamedValue
	err  error
}

// WorkerOptions are the create options that make the running program the
// plugin's compile worker: its path (stela_worker) and build ID
// (stela_worker_id). The program must link this package, whose init runs
// the worker when the plugin starts it.
func WorkerOptions() ([]pjrt.NamedValue, error) {
	workerOnce.Do(func() {
		exe, err := os.Executable()
		if err != nil {
			workerOnce.err = fmt.Errorf("locate the compile worker: %w", err)
			return
		}
		workerOnce.opts = []pjrt.NamedValue{{Name: "stela_worker", Value: exe}}
		if id, err := WorkerID(exe); err == nil {
			workerOnce.opts = append(workerOnce.opts, pjrt.NamedValue{Name: "stela_worker_id", Value: id})
		}
	})
	return workerOnce.opts, workerOnce.err
}
