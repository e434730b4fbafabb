// Package pyenv is the environment the tests that run Python (the XLA and
// numpy cross-checks) give it: this process's, with the directory in
// $STELA_JAXLIB_PYTHONPATH (where .ci/run installs jaxlib and ml_dtypes)
// put first on PYTHONPATH.
package pyenv

import "os"

// Environ returns os.Environ() with $STELA_JAXLIB_PYTHONPATH, if set,
// prepended to PYTHONPATH.
func Environ() []string {
	env := os.Environ()
	if p := os.Getenv("STELA_JAXLIB_PYTHONPATH"); p != "" {
		if old := os.Getenv("PYTHONPATH"); old != "" {
			p += string(os.PathListSeparator) + old
		}
		env = append(env, "PYTHONPATH="+p)
	}
	return env
}
