package mnemo_test

import (
	"errors"
	"testing"
	"time"

	mnemo "github.com/mnemod/mnemod/clients/go"
)

func TestAppendIsAtomicAndRetrySafe(t *testing.T) {
	eachBackend(t, func(t *testing.T, c *mnemo.Client) {
		ctx := t.Context()
		must[*mnemo.Session](t)(c.CreateSession(ctx, "ev", "u1", mnemo.NewSession{ID: "s1"}))
		events := []mnemo.NewEvent{
			{Author: "user", Content: map[string]any{"text": "deploy with make"}, StateDelta: map[string]any{
				"cart": 2, "temp:draft": "x", "user:tz": "CET"}},
			{Author: "bot", Content: "done", Usage: &mnemo.Usage{InputTokens: 12, OutputTokens: 3}},
			{Author: "bot", Content: "typing", Partial: true},
		}
		first := must[*mnemo.AppendResult](t)(c.AppendEvents(ctx, "ev", "u1", "s1", events, mnemo.AppendOptions{}))
		if len(first.Appended) != 2 || first.SkippedPartial != 1 || first.Version != 2 {
			t.Fatalf("append answered %+v", first)
		}
		if events[0].ID != "" {
			t.Errorf("AppendEvents changed the caller's events: %+v", events[0])
		}
		if first.State["temp:draft"] != "x" || first.State["user:tz"] != "CET" {
			t.Errorf("the answer's state %v lacks the temp: and user: keys", first.State)
		}
		// The retry of a lost answer: the same ids and content are not stored again.
		stored := []mnemo.NewEvent{events[0], events[1]}
		for i := range stored {
			stored[i].ID = first.Appended[i].ID
		}
		again := must[*mnemo.AppendResult](t)(c.AppendEvents(ctx, "ev", "u1", "s1", stored, mnemo.AppendOptions{}))
		if again.Appended[1].Seq != first.Appended[1].Seq {
			t.Errorf("a retried append took seq %d, first %d", again.Appended[1].Seq, first.Appended[1].Seq)
		}
		got := must[*mnemo.SessionWithEvents](t)(c.GetSession(ctx, "ev", "u1", "s1", mnemo.GetSessionOptions{}))
		if len(got.Events) != 2 || got.Events[0].Text() != "deploy with make" || got.Events[1].Text() != "done" {
			t.Fatalf("stored %+v", got.Events)
		}
		if _, ok := got.Events[0].StateDelta["temp:draft"]; ok || got.Session.State["temp:draft"] != nil {
			t.Errorf("a temp: key was stored: %v %v", got.Events[0].StateDelta, got.Session.State)
		}
		if got.Session.Usage.InputTokens != 12 || got.Events[1].Usage.OutputTokens != 3 {
			t.Errorf("usage %+v / %+v", got.Session.Usage, got.Events[1].Usage)
		}

		_, err := c.AppendEvent(ctx, "ev", "u1", "s1", mnemo.NewEvent{Author: "user", Content: "late"},
			mnemo.AppendOptions{ExpectedVersion: 1})
		var conflict *mnemo.Error
		if !errors.As(err, &conflict) || !errors.Is(err, mnemo.Conflict) {
			t.Fatalf("a stale expected version: %v, want Conflict", err)
		}
		if v, ok := conflict.CurrentVersion(); !ok || v != got.Session.Version {
			t.Errorf("the conflict carries version %d (%v), want %d", v, ok, got.Session.Version)
		}
		_, err = c.AppendEvent(ctx, "ev", "u1", "nope", mnemo.NewEvent{Author: "user", Content: "x"}, mnemo.AppendOptions{})
		if !errors.Is(err, mnemo.NotFound) {
			t.Errorf("appending to a missing session: %v, want NotFound", err)
		}
		must[*mnemo.AppendResult](t)(c.AppendEvent(ctx, "ev", "u1", "made", mnemo.NewEvent{Author: "user",
			Content: "x"}, mnemo.AppendOptions{CreateIfMissing: true}))
	})
}

func TestEventsFiltersAndPages(t *testing.T) {
	eachBackend(t, func(t *testing.T, c *mnemo.Client) {
		ctx := t.Context()
		base := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
		var batch []mnemo.NewEvent
		for i := range 5 {
			author := "user"
			if i%2 == 1 {
				author = "bot"
			}
			at := base.Add(time.Duration(i) * time.Second)
			batch = append(batch, mnemo.NewEvent{Author: author, Content: i, Timestamp: at})
		}
		must[*mnemo.AppendResult](t)(c.AppendEvents(ctx, "ev", "u2", "s", batch, mnemo.AppendOptions{CreateIfMissing: true}))
		read := func(opts mnemo.GetSessionOptions) int {
			return len(must[*mnemo.SessionWithEvents](t)(c.GetSession(ctx, "ev", "u2", "s", opts)).Events)
		}
		if n := read(mnemo.GetSessionOptions{NumRecentEvents: 2}); n != 2 {
			t.Errorf("NumRecentEvents 2 read %d", n)
		}
		if n := read(mnemo.GetSessionOptions{After: base.Add(time.Second)}); n != 3 {
			t.Errorf("After the second event read %d, want 3", n)
		}
		var seqs []int64
		for e, err := range c.Events(ctx, "ev", "u2", "s", mnemo.ListEventsOptions{Limit: 2}) {
			if err != nil {
				t.Fatal(err)
			}
			seqs = append(seqs, e.Seq)
		}
		if len(seqs) != 5 || seqs[4] != 5 {
			t.Errorf("paged seqs %v", seqs)
		}
		users := must[*mnemo.EventPage](t)(c.ListEvents(ctx, "ev", "u2", "s", mnemo.ListEventsOptions{
			Roles: []mnemo.Role{mnemo.RoleUser}}))
		if len(users.Events) != 3 {
			t.Errorf("user events: %d, want 3", len(users.Events))
		}

		rewound := must[*mnemo.RewindResult](t)(c.Rewind(ctx, "ev", "u2", "s", 1))
		if rewound.RewoundCount != 1 || rewound.TurnsUndone != 1 || rewound.TargetText != "" {
			t.Errorf("rewind %+v", rewound)
		}
		rewritten := must[*mnemo.RewriteResult](t)(c.RewriteEvents(ctx, "ev", "u2", "s",
			[]mnemo.NewEvent{{Author: "user", Content: "one"}}, 0))
		if rewritten.Replaced != 4 {
			t.Errorf("rewrite replaced %d, want 4", rewritten.Replaced)
		}
		all := must[*mnemo.EventPage](t)(c.ListEvents(ctx, "ev", "u2", "s", mnemo.ListEventsOptions{IncludeDeleted: true}))
		if len(all.Events) != 6 || all.Events[0].DeletedAt == nil || all.Events[5].DeletedAt != nil {
			t.Errorf("with deleted: %d events", len(all.Events))
		}
	})
}
