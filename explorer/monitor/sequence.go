package monitor

import (
	"sort"
	"time"
)

// A period is the from/until period of a change notification.
type period struct {
	from, until time.Time
	seq         int
}

// A run is a stretch of time covered by contiguous periods received: the
// periods of notifications firstSeq…lastSeq (the first and last by time,
// not by receipt) merged, so that a channel's memory grows with its gaps,
// not with its notifications.
type run struct {
	from, until       time.Time
	firstSeq, lastSeq int
}

// A sequence is what a channel's change notifications covered so far,
// for the checks of CN §3: consecutive notifications cover consecutive,
// non-overlapping periods. They may arrive out of order (a Destination
// puts them back in order by their periods), so each new period is
// compared with all the time covered, not only with the last period.
type sequence struct {
	runs []run // sorted by from; disjoint and not touching
}

// placement says how a new period relates to those received before.
type placement struct {
	// overlap is the run the period overlaps.
	overlap *run
	// gapAfter is the run that ends before the period starts, leaving a
	// hole.
	gapAfter *run
	// reordered is the run of a later period that was received earlier.
	reordered *run
}

// add records p and says how it relates to what was received before.
// Periods touch without overlapping when one's until is the next one's
// from. An overlapping period is recorded too (the time covered is the
// union), so that the notification after it is compared with all that
// was announced.
func (s *sequence) add(p period) placement {
	var pl placement
	// i is the first run that ends after p starts: the only one p can
	// overlap first, and the first one after p when it does not.
	i := sort.Search(len(s.runs), func(i int) bool { return s.runs[i].until.After(p.from) })
	switch {
	case i < len(s.runs) && s.runs[i].from.Before(p.until):
		r := s.runs[i]
		pl.overlap = &r
	case i < len(s.runs):
		r := s.runs[i]
		pl.reordered = &r
	}
	if pl.overlap == nil && i > 0 && s.runs[i-1].until.Before(p.from) {
		r := s.runs[i-1]
		pl.gapAfter = &r
	}
	// Replace the runs p overlaps or touches, runs[lo:hi], by their union
	// with p.
	lo := sort.Search(len(s.runs), func(i int) bool { return !s.runs[i].until.Before(p.from) })
	hi := sort.Search(len(s.runs), func(i int) bool { return s.runs[i].from.After(p.until) })
	nr := run{from: p.from, until: p.until, firstSeq: p.seq, lastSeq: p.seq}
	if lo < hi {
		if first := s.runs[lo]; first.from.Before(nr.from) {
			nr.from, nr.firstSeq = first.from, first.firstSeq
		}
		if last := s.runs[hi-1]; last.until.After(nr.until) {
			nr.until, nr.lastSeq = last.until, last.lastSeq
		}
	}
	s.runs = append(s.runs[:lo], append([]run{nr}, s.runs[hi:]...)...)
	return pl
}
