// Command wasm times validator.Validate on a document, four times, for
// bench/wasm/run.sh (built for GOOS=js GOARCH=wasm and run under Node).
package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"time"

	"github.com/rscheck/rscheck/validator"
)

func main() {
	data, err := os.ReadFile(os.Args[1])
	if err != nil {
		panic(err)
	}
	opts := &validator.Options{}
	if len(os.Args) > 2 && os.Args[2] == "noschema" {
		opts.NoSchema = true
	}
	for i := 0; i < 4; i++ {
		t := time.Now()
		rep, err := validator.Validate(context.Background(), bytes.NewReader(data), opts)
		fmt.Println(time.Since(t), err, rep.Entries, rep.Errors)
	}
}
