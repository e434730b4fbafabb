package cpu

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

func TestWorkerIDIsTheGoBuildID(t *testing.T) {
	id, err := WorkerID(os.Args[0])
	if err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("go", "tool", "buildid", os.Args[0]).Output()
	if err != nil {
		t.Skipf("go tool buildid: %v", err)
	}
	if want := strings.TrimSpace(string(out)); id != want {
		t.Errorf("WorkerID = %q, go tool buildid says %q", id, want)
	}
	if _, err := WorkerID("/etc/hostname"); err == nil {
		t.Errorf("WorkerID of a non-ELF file: no error")
	}
}
