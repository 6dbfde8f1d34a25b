package mnemo_test

import (
	"testing"

	mnemo "github.com/mnemod/mnemod/clients/go"
)

func TestSearchFindsNaturalQuestions(t *testing.T) {
	eachBackend(t, func(t *testing.T, c *mnemo.Client) {
		ctx := t.Context()
		for session, text := range map[string]string{"s1": "deploy with make -C /srv/app deploy", "s2": "lunch at noon"} {
			must[*mnemo.AppendResult](t)(c.AppendEvent(ctx, "se", "u1", session, mnemo.NewEvent{Author: "user",
				Content: map[string]any{"text": text}}, mnemo.AppendOptions{CreateIfMissing: true}))
		}
		found := must[*mnemo.SearchResult](t)(c.Search(ctx, "se", mnemo.SearchOptions{Query: "how did I deploy the app?"}))
		if len(found.Results) != 1 || found.Results[0].Session.ID != "s1" {
			t.Fatalf("found %+v", found.Results)
		}
		hit := found.Results[0].Hits[0]
		if hit.Seq != 1 || hit.Role != mnemo.RoleUser || len(hit.Highlights) == 0 || len(hit.Context) != 1 {
			t.Errorf("hit %+v", hit)
		}
		none := must[*mnemo.SearchResult](t)(c.Search(ctx, "se", mnemo.SearchOptions{Query: "deploy lunch",
			MatchAll: true}))
		if len(none.Results) != 0 {
			t.Errorf("match all found %+v", none.Results)
		}
		other := must[*mnemo.SearchResult](t)(c.Search(ctx, "se", mnemo.SearchOptions{Query: "deploy", User: "u2"}))
		if len(other.Results) != 0 {
			t.Errorf("another user's search found %+v", other.Results)
		}
	})
}

func TestLanes(t *testing.T) {
	eachBackend(t, func(t *testing.T, c *mnemo.Client) {
		ctx := t.Context()
		lane := "telegram:dm:42"
		first := must[*mnemo.LaneSession](t)(c.ResolveLane(ctx, "la", lane, mnemo.ResolveLane{User: "u1",
			Platform: "telegram", ChatType: "dm"}))
		if !first.Created || first.Lane.SessionID != first.Session.ID || first.Lane.Platform != "telegram" {
			t.Fatalf("first resolve %+v", first)
		}
		again := must[*mnemo.LaneSession](t)(c.ResolveLane(ctx, "la", lane, mnemo.ResolveLane{User: "u1"}))
		if again.Created || again.Session.ID != first.Session.ID {
			t.Errorf("second resolve moved to %s", again.Session.ID)
		}
		pending := must[*mnemo.Lane](t)(c.ResumePending(ctx, "la", lane, mnemo.ResumeRestartTimeout))
		if !pending.ResumePending || pending.ResumeReason != mnemo.ResumeRestartTimeout {
			t.Errorf("resume pending %+v", pending)
		}
		done := must[*mnemo.Lane](t)(c.TurnComplete(ctx, "la", lane, 120, 30))
		if done.ResumePending {
			t.Errorf("turn complete left %+v", done)
		}
		reset := must[*mnemo.LaneSession](t)(c.ResetLane(ctx, "la", lane))
		if !reset.Lane.IsFreshReset || reset.Session.ParentID != first.Session.ID {
			t.Errorf("reset %+v", reset)
		}
		back := must[*mnemo.LaneSession](t)(c.SwitchLane(ctx, "la", lane, first.Session.ID))
		if back.Lane.SessionID != first.Session.ID {
			t.Errorf("switch %+v", back.Lane)
		}
		suspended := must[*mnemo.Lane](t)(c.SuspendLane(ctx, "la", lane))
		if !suspended.Suspended {
			t.Errorf("suspend %+v", suspended)
		}
		read := must[*mnemo.Lane](t)(c.Lane(ctx, "la", lane))
		if read.Lane != lane || !read.Suspended {
			t.Errorf("read %+v", read)
		}
		n := 0
		for l, err := range c.Lanes(ctx, "la", mnemo.ListLanesOptions{Limit: 1}) {
			if err != nil || l.Lane != lane {
				t.Fatalf("%v %+v", err, l)
			}
			n++
		}
		if n != 1 {
			t.Errorf("listed %d lanes", n)
		}
	})
}
