package validator

import "testing"

// TestKeySet: first entries are remembered across growth, and key 0 (the
// free-slot marker) is a key like another.
func TestKeySet(t *testing.T) {
	var s keySet
	for i := int32(1); i <= 5000; i++ {
		if _, dup := s.add(uint64(i)*0x9e3779b97f4a7c15, i); dup {
			t.Fatalf("key %d reported as a duplicate", i)
		}
	}
	for i := int32(1); i <= 5000; i++ {
		if n, dup := s.add(uint64(i)*0x9e3779b97f4a7c15, -1); !dup || n != i {
			t.Fatalf("key %d: got (%d, %v), want (%d, true)", i, n, dup, i)
		}
	}
	if _, dup := s.add(0, 7); dup {
		t.Fatal("key 0 reported as a duplicate")
	}
	if n, dup := s.add(0, 8); !dup || n != 7 {
		t.Fatalf("key 0: got (%d, %v), want (7, true)", n, dup)
	}
}
