package validator_test

import (
	"bytes"
	"context"
	"testing"

	"github.com/rscheck/rscheck/validator"
	"github.com/rscheck/rscheck/validator/xmlscan"
)

func BenchmarkZZScanModel(b *testing.B) {
	data := resourceList50k()
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		validator.Validate(context.Background(), bytes.NewReader(data), &validator.Options{NoSchema: true, Rules: []*validator.Rule{}})
	}
}

func BenchmarkZZScanner(b *testing.B) {
	data := resourceList50k()
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		sc := xmlscan.NewScanner(bytes.NewReader(data))
		for {
			if _, err := sc.Next(); err != nil {
				break
			}
		}
	}
}
