package monitor

import (
	"testing"
	"time"
)

// TestSequence checks how periods are placed against those received
// before: touching, overlapping, leaving a gap, arriving out of order.
func TestSequence(t *testing.T) {
	t0 := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	at := func(m int) time.Time { return t0.Add(time.Duration(m) * time.Minute) }
	type step struct {
		from, until int
		want        string // "", "overlap N", "gap N", "reordered N", "reordered N gap M"
		runs        int
	}
	for _, tc := range []struct {
		name  string
		steps []step
	}{
		{"consecutive", []step{{0, 10, "", 1}, {10, 20, "", 1}, {20, 20, "", 1}, {20, 30, "", 1}}},
		{"overlap", []step{{0, 10, "", 1}, {5, 20, "overlap 1", 1}, {20, 30, "", 1}}},
		{"same period", []step{{0, 10, "", 1}, {0, 10, "overlap 1", 1}}},
		{"gap", []step{{0, 10, "", 1}, {15, 20, "gap 1", 2}, {20, 30, "", 2}}},
		{"reordered fills the gap", []step{{0, 10, "", 1}, {20, 30, "gap 1", 2}, {10, 20, "reordered 2", 1}}},
		{"reordered leaves a gap", []step{{20, 30, "", 1}, {0, 10, "reordered 1", 2}, {12, 18, "reordered 1 gap 2", 3}}},
		{"overlap inside an earlier run", []step{{0, 10, "", 1}, {20, 30, "gap 1", 2}, {2, 3, "overlap 1", 2}}},
		{"overlap spanning runs", []step{{0, 10, "", 1}, {20, 30, "gap 1", 2}, {5, 25, "overlap 1", 1}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var s sequence
			for i, st := range tc.steps {
				pl := s.add(period{from: at(st.from), until: at(st.until), seq: i + 1})
				got := ""
				add := func(w string, r *run, seq int) {
					if r != nil {
						if got != "" {
							got += " "
						}
						got += w + " " + itoa(seq)
					}
				}
				if pl.overlap != nil {
					add("overlap", pl.overlap, pl.overlap.lastSeq)
				}
				if pl.reordered != nil {
					add("reordered", pl.reordered, pl.reordered.firstSeq)
				}
				if pl.gapAfter != nil {
					add("gap", pl.gapAfter, pl.gapAfter.lastSeq)
				}
				if got != st.want || len(s.runs) != st.runs {
					t.Errorf("step %d [%d,%d]: %q with %d runs, want %q with %d", i+1, st.from, st.until, got, len(s.runs), st.want, st.runs)
				}
			}
		})
	}
}

func itoa(n int) string {
	if n < 10 {
		return string(rune('0' + n))
	}
	return itoa(n/10) + string(rune('0'+n%10))
}
