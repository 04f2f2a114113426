package validator_test

import (
	"bytes"
	"context"
	"io"
	"sync"
	"testing"

	"github.com/rscheck/rscheck/validator"
)

var resourceList50k = sync.OnceValue(func() []byte {
	var b bytes.Buffer
	io.Copy(&b, bigResourceList(50000))
	return b.Bytes()
})

// BenchmarkValidateResourceList validates a 50,000-entry Resource List
// (about 12 MB) with the XSD step and every rule.
func BenchmarkValidateResourceList(b *testing.B) {
	data := resourceList50k()
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		rep, err := validator.Validate(context.Background(), bytes.NewReader(data), nil)
		if err != nil || rep.Entries != 50000 {
			b.Fatal(err, rep.Entries)
		}
	}
}

// BenchmarkValidateRulesOnly isolates the rules (no XSD step).
func BenchmarkValidateRulesOnly(b *testing.B) {
	data := resourceList50k()
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := validator.Validate(context.Background(), bytes.NewReader(data), &validator.Options{NoSchema: true}); err != nil {
			b.Fatal(err)
		}
	}
}
