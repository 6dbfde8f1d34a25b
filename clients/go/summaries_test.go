package mnemo_test

import (
	"testing"
	"time"

	mnemo "github.com/mnemod/mnemod/clients/go"
)

func TestSummariesAndCheckpoint(t *testing.T) {
	eachBackend(t, func(t *testing.T, c *mnemo.Client) {
		ctx := t.Context()
		app, user, session := "sum", "u1", "s1"
		for _, text := range []string{"deploy the app", "deployed"} {
			must[*mnemo.AppendResult](t)(c.AppendEvent(ctx, app, user, session, mnemo.NewEvent{Author: "user",
				Content: text}, mnemo.AppendOptions{CreateIfMissing: true}))
		}
		posted := must[*mnemo.Summary](t)(c.PostSummary(ctx, app, user, session, mnemo.NewSummary{Text: "User deployed."}))
		if posted.Source != "client" || posted.UpToSeq != 2 || posted.FromSeq != 1 {
			t.Errorf("posted %+v", posted)
		}
		must[*mnemo.AppendResult](t)(c.AppendEvent(ctx, app, user, session, mnemo.NewEvent{Author: "user",
			Content: "and now?"}, mnemo.AppendOptions{}))
		read := must[*mnemo.SessionWithEvents](t)(c.GetSession(ctx, app, user, session,
			mnemo.GetSessionOptions{FromCheckpoint: true}))
		if read.Summary == nil || read.Summary.Text != "User deployed." || len(read.Events) != 1 {
			t.Errorf("from the checkpoint: %+v", read)
		}
		list := must[[]mnemo.Summary](t)(c.Summaries(ctx, app, user, session))
		if len(list) != 1 || list[0].Text != "User deployed." {
			t.Errorf("summaries %+v", list)
		}
		// The default Lua summarizer writes a summary of what is new when asked to wait.
		made := must[*mnemo.Summary](t)(c.Summarize(ctx, app, user, session, mnemo.SummarizeOptions{Wait: true}))
		if made.FromSeq != 3 || made.UpToSeq != 3 || made.Source == "client" {
			t.Errorf("summarized %+v", made)
		}
	})
}

func TestTracks(t *testing.T) {
	eachBackend(t, func(t *testing.T, c *mnemo.Client) {
		ctx := t.Context()
		must[*mnemo.Session](t)(c.CreateSession(ctx, "tr", "u1", mnemo.NewSession{ID: "s1"}))
		for i := range 5 {
			entry := must[*mnemo.TrackEvent](t)(c.AppendTrack(ctx, "tr", "u1", "s1", "audit",
				map[string]any{"tool": "grep", "ms": i}, time.Time{}))
			if entry.Seq != int64(i+1) {
				t.Errorf("entry %d took seq %d", i, entry.Seq)
			}
		}
		var payloads []string
		for entry, err := range c.Track(ctx, "tr", "u1", "s1", "audit", 2) {
			if err != nil {
				t.Fatal(err)
			}
			payloads = append(payloads, string(entry.Payload))
		}
		if len(payloads) != 5 || payloads[4] != `{"ms":4,"tool":"grep"}` {
			t.Errorf("track %v", payloads)
		}
		// Tracks are not the transcript: the session's version did not move.
		s := must[*mnemo.SessionWithEvents](t)(c.GetSession(ctx, "tr", "u1", "s1", mnemo.GetSessionOptions{}))
		if s.Session.Version != 1 || len(s.Events) != 0 {
			t.Errorf("a track changed the session: %+v", s.Session)
		}
	})
}
