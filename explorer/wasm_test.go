package explorer_test

import (
	"os"
	"os/exec"
	"runtime"
	"testing"
)

// TestBuildsForJSWasm checks that the explorer and its subpackages build
// and vet for the browser (GOOS=js GOARCH=wasm) with no build tags: the
// wasm bridge imports them as they are.
func TestBuildsForJSWasm(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the go command")
	}
	goTool, err := exec.LookPath("go")
	if err != nil {
		goTool = runtime.GOROOT() + "/bin/go"
	}
	cmd := exec.Command(goTool, "vet", "./...")
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("GOOS=js GOARCH=wasm go vet ./explorer/...: %v\n%s", err, out)
	}
}
