package dist

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	clientv3 "go.etcd.io/etcd/client/v3"
	"go.uber.org/zap"
)

// EtcdVar names the etcd server binary the launcher and the tests start
// (default: etcd on $PATH; Debian's etcd-server package installs it).
const EtcdVar = "STELA_ETCD"

// ErrNoEtcd is LocalEtcd's error when no etcd binary is found.
var ErrNoEtcd = errors.New("no etcd server binary (install Debian's etcd-server, or set " + EtcdVar + ")")

// EtcdPath finds the etcd server binary.
func EtcdPath() (string, error) {
	if p := os.Getenv(EtcdVar); p != "" {
		return p, nil
	}
	p, err := exec.LookPath("etcd")
	if err != nil {
		return "", ErrNoEtcd
	}
	return p, nil
}

// LocalEtcd is a single-member etcd on loopback with its data in a
// temporary directory, for the launcher and for tests.
type LocalEtcd struct {
	Endpoint string // "127.0.0.1:port"
	cmd      *exec.Cmd
	dir      string
	done     chan struct{}
	waitErr  error
}

// StartLocalEtcd starts etcd on two free loopback ports and waits until
// it serves. Its log goes to etcd.log in its data directory, which the
// error shows the end of when it does not start.
func StartLocalEtcd(ctx context.Context) (*LocalEtcd, error) {
	bin, err := EtcdPath()
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "stela-etcd-")
	if err != nil {
		return nil, err
	}
	ports, err := freePorts(2)
	if err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	client := fmt.Sprintf("http://127.0.0.1:%d", ports[0])
	peer := fmt.Sprintf("http://127.0.0.1:%d", ports[1])
	logf, err := os.Create(filepath.Join(dir, "etcd.log"))
	if err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	cmd := exec.Command(bin,
		"--name", "stela",
		"--data-dir", filepath.Join(dir, "data"),
		"--listen-client-urls", client, "--advertise-client-urls", client,
		"--listen-peer-urls", peer, "--initial-advertise-peer-urls", peer,
		"--initial-cluster", "stela="+peer,
		"--log-outputs", "stderr")
	cmd.Stdout, cmd.Stderr = logf, logf
	// Its own process group, so that a terminal's ^C reaches the launcher,
	// which then stops etcd last.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	if err := cmd.Start(); err != nil {
		logf.Close()
		os.RemoveAll(dir)
		return nil, fmt.Errorf("starting %s: %w", bin, err)
	}
	logf.Close()
	e := &LocalEtcd{Endpoint: strings.TrimPrefix(client, "http://"), cmd: cmd, dir: dir, done: make(chan struct{})}
	go func() { e.waitErr = cmd.Wait(); close(e.done) }()
	if err := e.ready(ctx); err != nil {
		log := e.logTail()
		e.Close()
		return nil, fmt.Errorf("etcd (%s) did not start: %w\n%s", bin, err, log)
	}
	return e, nil
}

func (e *LocalEtcd) ready(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	cli, err := clientv3.New(clientv3.Config{Endpoints: []string{e.Endpoint}, DialTimeout: 30 * time.Second, Logger: zap.NewNop()})
	if err != nil {
		return err
	}
	defer cli.Close()
	for {
		rctx, c := context.WithTimeout(ctx, time.Second)
		_, err := cli.Get(rctx, "/stela-ready")
		c()
		if err == nil {
			return nil
		}
		select {
		case <-e.done:
			return fmt.Errorf("it exited: %v", e.waitErr)
		case <-ctx.Done():
			return fmt.Errorf("no answer at %s: %v", e.Endpoint, err)
		case <-time.After(50 * time.Millisecond):
		}
	}
}

func (e *LocalEtcd) logTail() string {
	b, _ := os.ReadFile(filepath.Join(e.dir, "etcd.log"))
	if len(b) > 4000 {
		b = b[len(b)-4000:]
	}
	return string(b)
}

// Close stops etcd and removes its data.
func (e *LocalEtcd) Close() error {
	e.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-e.done:
	case <-time.After(5 * time.Second):
		e.cmd.Process.Kill()
		<-e.done
	}
	return os.RemoveAll(e.dir)
}

// freePorts returns n loopback TCP ports that were free a moment ago.
func freePorts(n int) ([]int, error) {
	var ls []net.Listener
	defer func() {
		for _, l := range ls {
			l.Close()
		}
	}()
	var ports []int
	for range n {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return nil, err
		}
		ls = append(ls, l)
		ports = append(ports, l.Addr().(*net.TCPAddr).Port)
	}
	return ports, nil
}
