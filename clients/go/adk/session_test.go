package adk_test

import (
	"errors"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"google.golang.org/adk/v2/model"
	"google.golang.org/adk/v2/session"
	"google.golang.org/genai"

	mnemo "github.com/mnemod/mnemod/clients/go"
	"github.com/mnemod/mnemod/clients/go/adk"
)

func create(t *testing.T, s *adk.SessionService, app, user string, state map[string]any) session.Session {
	t.Helper()
	created, err := s.Create(t.Context(), &session.CreateRequest{AppName: app, UserID: user, State: state})
	if err != nil {
		t.Fatal(err)
	}
	return created.Session
}

func get(t *testing.T, s *adk.SessionService, sess session.Session, after time.Time) session.Session {
	t.Helper()
	got, err := s.Get(t.Context(), &session.GetRequest{AppName: sess.AppName(), UserID: sess.UserID(),
		SessionID: sess.ID(), After: after})
	if err != nil {
		t.Fatal(err)
	}
	return got.Session
}

func stateOf(s session.Session) map[string]any {
	state := map[string]any{}
	for k, v := range s.State().All() {
		state[k] = v
	}
	return state
}

// The session object passed to AppendEvent is updated in place: its state
// sees temp: keys for the rest of the invocation; storage never does.
func TestAppendEventUpdatesTheSessionInPlace(t *testing.T) {
	eachBackend(t, func(t *testing.T, c *mnemo.Client) {
		s := adk.NewSessionService(c)
		sess := create(t, s, "inplace", "u1", map[string]any{"temp:seed": 1, "k": 0})
		event := &session.Event{ID: "e1", Author: "user", Timestamp: time.Now(), Actions: session.EventActions{
			StateDelta: map[string]any{"temp:draft": "x", "k": 2.0, "app:a": "A", "user:u": "U"}}}
		if err := s.AppendEvent(t.Context(), sess, event); err != nil {
			t.Fatal(err)
		}
		want := map[string]any{"temp:seed": 1, "temp:draft": "x", "k": 2.0, "app:a": "A", "user:u": "U"}
		if diff := cmp.Diff(want, stateOf(sess)); diff != "" {
			t.Errorf("the session object's state (-want +got):\n%s", diff)
		}
		if sess.Events().Len() != 1 || sess.Events().At(0).Actions.StateDelta["temp:draft"] != nil {
			t.Errorf("the session object's events: %+v", sess.Events().At(0))
		}
		if _, ok := event.Actions.StateDelta["temp:draft"]; !ok {
			t.Errorf("AppendEvent changed the caller's state delta: %v", event.Actions.StateDelta)
		}
		stored := get(t, s, sess, time.Time{})
		delete(want, "temp:draft")
		delete(want, "temp:seed")
		if diff := cmp.Diff(want, stateOf(stored)); diff != "" {
			t.Errorf("the stored state (-want +got):\n%s", diff)
		}
		if _, ok := stored.Events().At(0).Actions.StateDelta["temp:draft"]; ok {
			t.Errorf("a temp: key was stored in the event")
		}
	})
}

// app: and user: keys come back merged on every read, on create and list too.
func TestScopedStateMergedOnEveryRead(t *testing.T) {
	eachBackend(t, func(t *testing.T, c *mnemo.Client) {
		emptyApp(t, c, "merged")
		s := adk.NewSessionService(c)
		create(t, s, "merged", "u1", map[string]any{"app:plan": "pro", "user:lang": "de", "own": 1.0})
		second := create(t, s, "merged", "u1", nil)
		if diff := cmp.Diff(map[string]any{"app:plan": "pro", "user:lang": "de"}, stateOf(second)); diff != "" {
			t.Errorf("a new session of the same user (-want +got):\n%s", diff)
		}
		other := create(t, s, "merged", "u2", nil)
		if diff := cmp.Diff(map[string]any{"app:plan": "pro"}, stateOf(get(t, s, other, time.Time{}))); diff != "" {
			t.Errorf("another user's session (-want +got):\n%s", diff)
		}
		// An empty user lists the whole app, each session with its merged state.
		listed, err := s.List(t.Context(), &session.ListRequest{AppName: "merged"})
		if err != nil {
			t.Fatal(err)
		}
		owns := 0
		for _, sess := range listed.Sessions {
			state := stateOf(sess)
			if state["app:plan"] != "pro" || sess.Events().Len() != 0 {
				t.Errorf("listed %s/%s with state %v and %d events", sess.UserID(), sess.ID(), state, sess.Events().Len())
			}
			if state["own"] == 1.0 {
				owns++
			}
		}
		if len(listed.Sessions) != 3 || owns != 1 {
			t.Errorf("listed %d sessions (%d with their own key), want 3 (1)", len(listed.Sessions), owns)
		}
	})
}

// The event round-trips whole: content, actions, usage, custom metadata,
// long-running tool ids, numbers and all.
func TestEventRoundTripsWhole(t *testing.T) {
	eachBackend(t, func(t *testing.T, c *mnemo.Client) {
		s := adk.NewSessionService(c)
		sess := create(t, s, "whole", "u1", nil)
		event := &session.Event{
			ID: "call-1", InvocationID: "inv-1", Branch: "root.helper", Author: "helper",
			Timestamp:          time.Date(2026, 1, 2, 3, 4, 5, 123456789, time.UTC),
			LongRunningToolIDs: []string{"fc-1"},
			Actions: session.EventActions{
				StateDelta:    map[string]any{"count": 3.0, "big": 9007199254740991.0, "nested": map[string]any{"x": []any{1.5}}},
				ArtifactDelta: map[string]int64{"report.pdf": 2}, TransferToAgent: "writer", Escalate: true,
			},
			LLMResponse: model.LLMResponse{
				Content: &genai.Content{Role: genai.RoleModel, Parts: []*genai.Part{
					genai.NewPartFromText("checking"),
					genai.NewPartFromFunctionCall("lookup", map[string]any{"q": "tea", "n": 2.0}),
				}},
				UsageMetadata: &genai.GenerateContentResponseUsageMetadata{PromptTokenCount: 7,
					CandidatesTokenCount: 11, TotalTokenCount: 18},
				CustomMetadata: map[string]any{"score": 0.25, "tags": []any{"a", "b"}},
				TurnComplete:   true, FinishReason: genai.FinishReasonStop, AvgLogprobs: -0.125,
			},
		}
		if err := s.AppendEvent(t.Context(), sess, event); err != nil {
			t.Fatal(err)
		}
		if event.Timestamp.Nanosecond() != 123456000 {
			t.Errorf("the timestamp was not truncated to microseconds: %v", event.Timestamp)
		}
		got := get(t, s, sess, time.Time{}).Events().At(0)
		if diff := cmp.Diff(event, got); diff != "" {
			t.Errorf("the event read back (-want +got):\n%s", diff)
		}
		stored, err := c.GetSession(t.Context(), "whole", "u1", sess.ID(), mnemo.GetSessionOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if u := stored.Session.Usage; u.InputTokens != 7 || u.OutputTokens != 11 || u.TotalTokens != 18 {
			t.Errorf("mnemod's usage of the session: %+v", u)
		}
		if text := stored.Events[0].Text(); text != "checking" {
			t.Errorf("mnemod's text of the event: %q", text)
		}
	})
}

// After keeps the events at or after it; NumRecentEvents the newest N.
func TestGetFilters(t *testing.T) {
	eachBackend(t, func(t *testing.T, c *mnemo.Client) {
		s := adk.NewSessionService(c)
		sess := create(t, s, "filters", "u1", nil)
		base := time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)
		for i := range 4 {
			event := &session.Event{Author: "user", Timestamp: base.Add(time.Duration(i) * time.Microsecond)}
			if err := s.AppendEvent(t.Context(), sess, event); err != nil {
				t.Fatal(err)
			}
		}
		if n := get(t, s, sess, base.Add(2*time.Microsecond)).Events().Len(); n != 2 {
			t.Errorf("after the third event's own timestamp: %d events, want 2", n)
		}
		if n := get(t, s, sess, base.Add(2*time.Microsecond+time.Nanosecond)).Events().Len(); n != 1 {
			t.Errorf("a nanosecond after the third event: %d events, want 1", n)
		}
		got, err := s.Get(t.Context(), &session.GetRequest{AppName: "filters", UserID: "u1", SessionID: sess.ID(),
			NumRecentEvents: 3})
		if err != nil || got.Session.Events().Len() != 3 {
			t.Fatalf("NumRecentEvents 3: %v", err)
		}
		if first := got.Session.Events().At(0); !first.Timestamp.Equal(base.Add(time.Microsecond)) {
			t.Errorf("the newest 3 start at %v", first.Timestamp)
		}
	})
}

// A session object that missed a write is refused, not silently interleaved;
// deleting a missing session is no error; another client's events read as text.
func TestStaleObjectsMissingSessionsAndForeignEvents(t *testing.T) {
	eachBackend(t, func(t *testing.T, c *mnemo.Client) {
		ctx := t.Context()
		s := adk.NewSessionService(c)
		first := create(t, s, "stale", "u1", nil)
		second := get(t, s, first, time.Time{})
		if err := s.AppendEvent(ctx, first, &session.Event{Author: "user"}); err != nil {
			t.Fatal(err)
		}
		err := s.AppendEvent(ctx, second, &session.Event{Author: "user"})
		if !errors.Is(err, adk.ErrStale) || !errors.Is(err, mnemo.Conflict) {
			t.Errorf("appending through a stale object: %v, want ErrStale and Conflict", err)
		}
		fresh := get(t, s, first, time.Time{})
		reused := &session.Event{ID: fresh.Events().At(0).ID, Author: "user", Timestamp: time.Now()}
		err = s.AppendEvent(ctx, fresh, reused)
		if !errors.Is(err, mnemo.Conflict) || errors.Is(err, adk.ErrStale) {
			t.Errorf("reusing an event id for other content: %v, want a Conflict that is not ErrStale", err)
		}
		if err := s.Delete(ctx, &session.DeleteRequest{AppName: "stale", UserID: "u1", SessionID: "nope"}); err != nil {
			t.Errorf("deleting a missing session: %v", err)
		}
		_, err = s.Get(ctx, &session.GetRequest{AppName: "stale", UserID: "u1", SessionID: "nope"})
		if !errors.Is(err, mnemo.NotFound) {
			t.Errorf("reading a missing session: %v, want NotFound", err)
		}
		_, err = c.AppendEvent(ctx, "stale", "u1", first.ID(), mnemo.NewEvent{Author: "user", Content: "plain"},
			mnemo.AppendOptions{})
		if err != nil {
			t.Fatal(err)
		}
		events := get(t, s, first, time.Time{}).Events()
		last := events.At(events.Len() - 1)
		if last.Author != "user" || last.Content == nil || last.Content.Parts[0].Text != "plain" ||
			last.Content.Role != genai.RoleUser {
			t.Errorf("another client's event read as %+v", last)
		}
	})
}
