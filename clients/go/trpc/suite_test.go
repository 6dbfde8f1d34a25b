package trpc_test

// The behaviours tRPC-Agent-Go's in-memory session service is tested for
// (session/inmemory/service_test.go, state_test.go and summary_test.go at
// v1.11.2), as one table that runs against that service and SessionService
// alike. Where mnemod cannot give the same answer the case says so and is
// in mnemod_test.go instead.

import (
	"bytes"
	"fmt"
	"testing"
	"time"

	"trpc.group/trpc-go/trpc-agent-go/event"
	"trpc.group/trpc-go/trpc-agent-go/model"
	"trpc.group/trpc-go/trpc-agent-go/session"
)

func message(author string, role model.Role, text string, at time.Time) *event.Event {
	e := event.New("inv-1", author)
	e.Timestamp = at
	e.Response = &model.Response{Choices: []model.Choice{{Message: model.Message{Role: role, Content: text}}}}
	return e
}

func mustCreate(t *testing.T, svc session.Service, key session.Key, state session.StateMap) *session.Session {
	t.Helper()
	sess, err := svc.CreateSession(t.Context(), key, state)
	if err != nil || sess == nil {
		t.Fatalf("CreateSession(%+v): %v", key, err)
	}
	return sess
}

func mustGet(t *testing.T, svc session.Service, key session.Key, opts ...session.Option) *session.Session {
	t.Helper()
	sess, err := svc.GetSession(t.Context(), key, opts...)
	if err != nil || sess == nil {
		t.Fatalf("GetSession(%+v): %v, %v", key, sess, err)
	}
	return sess
}

func mustAppend(t *testing.T, svc session.Service, sess *session.Session, events ...*event.Event) {
	t.Helper()
	for _, e := range events {
		if err := svc.AppendEvent(t.Context(), sess, e); err != nil {
			t.Fatalf("AppendEvent: %v", err)
		}
	}
}

func authors(events []event.Event) []string {
	out := make([]string, len(events))
	for i, e := range events {
		out[i] = e.Author
	}
	return out
}

// fiveUserEvents is TestGetSession's setup: five user events 30 minutes apart.
func fiveUserEvents(t *testing.T, svc session.Service, key session.Key) time.Time {
	t.Helper()
	mustCreate(t, svc, key, session.StateMap{"key1": []byte("value1")})
	base := time.Now().Add(-2 * time.Hour)
	for i := range 5 {
		author := fmt.Sprintf("author_%d", i+1)
		e := message(author, model.RoleUser, "Test message from "+author, base.Add(time.Duration(i)*30*time.Minute))
		mustAppend(t, svc, &session.Session{AppName: key.AppName, UserID: key.UserID, ID: key.SessionID}, e)
	}
	return base
}

var suite = []struct {
	name string
	from string // the test of tRPC's in-memory service it ports
	run  func(t *testing.T, svc session.Service, app string)
}{
	{"create with state", "TestCreateSession/valid_session_creation",
		func(t *testing.T, svc session.Service, app string) {
			state := session.StateMap{"key1": []byte("value1"), "key2": []byte(`{"json":true}`), "bin": {0xff, 0}}
			sess := mustCreate(t, svc, session.Key{AppName: app, UserID: "user123"}, state)
			if sess.ID == "" || sess.CreatedAt.IsZero() || sess.UpdatedAt.IsZero() || len(sess.Events) != 0 {
				t.Errorf("created %+v", sess)
			}
			for k, v := range state {
				if !bytes.Equal(sess.State[k], v) {
					t.Errorf("state %s = %q, want %q", k, sess.State[k], v)
				}
			}
		}},
	{"create with an id", "TestCreateSession/session_with_predefined_id",
		func(t *testing.T, svc session.Service, app string) {
			sess := mustCreate(t, svc, session.Key{AppName: app, UserID: "user123", SessionID: "predefined-session-id"}, nil)
			if sess.ID != "predefined-session-id" || sess.AppName != app || sess.UserID != "user123" || len(sess.State) != 0 {
				t.Errorf("created %+v", sess)
			}
		}},
	{"create without app or user", "TestCreateSession/invalid_key_*",
		func(t *testing.T, svc session.Service, app string) {
			for _, key := range []session.Key{{UserID: "user123"}, {AppName: app}} {
				if sess, err := svc.CreateSession(t.Context(), key, nil); err == nil || sess != nil {
					t.Errorf("CreateSession(%+v) = %v, %v; want an error", key, sess, err)
				}
			}
		}},
	{"get a missing session", "TestGetSession/get_non-existent_session",
		func(t *testing.T, svc session.Service, app string) {
			for _, key := range []session.Key{{AppName: app, UserID: "user1", SessionID: "nonexistent"},
				{AppName: app + "-none", UserID: "user1", SessionID: "session1"}} {
				if sess, err := svc.GetSession(t.Context(), key, session.WithEventNum(1)); err != nil || sess != nil {
					t.Errorf("GetSession(%+v) = %v, %v; want nil, nil", key, sess, err)
				}
			}
		}},
	{"event number and time", "TestGetSession/get_session_with_*", func(t *testing.T, svc session.Service, app string) {
		key := session.Key{AppName: app, UserID: "user1", SessionID: "session1"}
		base := fiveUserEvents(t, svc, key)
		for _, c := range []struct {
			opts []session.Option
			want []string
		}{
			{nil, []string{"author_1", "author_2", "author_3", "author_4", "author_5"}},
			{[]session.Option{session.WithEventNum(3)}, []string{"author_3", "author_4", "author_5"}},
			{[]session.Option{session.WithEventTime(base.Add(45 * time.Minute))}, []string{"author_3", "author_4", "author_5"}},
			{[]session.Option{session.WithEventNum(2), session.WithEventTime(base.Add(30 * time.Minute))},
				[]string{"author_4", "author_5"}},
		} {
			if got := authors(mustGet(t, svc, key, c.opts...).Events); fmt.Sprint(got) != fmt.Sprint(c.want) {
				t.Errorf("events %v, want %v", got, c.want)
			}
		}
	}},
	{"events start at a user message", "TestGetSession_EventFiltering_Integration",
		func(t *testing.T, svc session.Service, app string) {
			key := session.Key{AppName: app, UserID: "user123", SessionID: "session123"}
			sess := mustCreate(t, svc, key, nil)
			base := time.Now()
			mustAppend(t, svc, sess,
				message("a1", model.RoleAssistant, "Assistant message 1", base.Add(-5*time.Hour)),
				message("a2", model.RoleAssistant, "Assistant message 2", base.Add(-4*time.Hour)),
				message("u1", model.RoleUser, "User message 1", base.Add(-3*time.Hour)),
				message("a3", model.RoleAssistant, "Assistant message 3", base.Add(-2*time.Hour)))
			if got := authors(mustGet(t, svc, key).Events); fmt.Sprint(got) != "[u1 a3]" {
				t.Errorf("GetSession's events %v, want [u1 a3]", got)
			}
			listed, err := svc.ListSessions(t.Context(), session.UserKey{AppName: app, UserID: "user123"})
			if err != nil || len(listed) != 1 || fmt.Sprint(authors(listed[0].Events)) != "[u1 a3]" {
				t.Errorf("ListSessions: %v %v", listed, err)
			}
			// With a window that starts after the user message, it is brought back in front.
			if got := authors(mustGet(t, svc, key, session.WithEventNum(1)).Events); fmt.Sprint(got) != "[u1 a3]" {
				t.Errorf("the newest event: %v, want [u1 a3]", got)
			}
		}},
	{"assistant events only", "TestGetSession_AllAssistantEvents_Integration",
		func(t *testing.T, svc session.Service, app string) {
			key := session.Key{AppName: app, UserID: "user123", SessionID: "session456"}
			sess := mustCreate(t, svc, key, nil)
			mustAppend(t, svc, sess, message("a1", model.RoleAssistant, "one", time.Now().Add(-time.Hour)),
				message("a2", model.RoleAssistant, "two", time.Now()))
			if n := len(mustGet(t, svc, key).Events); n != 0 {
				t.Errorf("%d events, want 0", n)
			}
		}},
	{"list a user's sessions", "TestListSessions, TestAppIsolation",
		func(t *testing.T, svc session.Service, app string) {
			for _, key := range []session.Key{{AppName: app, UserID: "user1", SessionID: "s1"},
				{AppName: app, UserID: "user1", SessionID: "s2"}, {AppName: app, UserID: "user2", SessionID: "s3"},
				{AppName: app + "-other", UserID: "user1", SessionID: "s4"}} {
				mustCreate(t, svc, key, nil)
			}
			for user, want := range map[string]int{"user1": 2, "user2": 1, "nobody": 0} {
				listed, err := svc.ListSessions(t.Context(), session.UserKey{AppName: app, UserID: user})
				if err != nil || len(listed) != want || listed == nil {
					t.Errorf("ListSessions(%s) = %d sessions, %v; want %d", user, len(listed), err, want)
				}
				for _, s := range listed {
					if s.AppName != app || s.UserID != user {
						t.Errorf("ListSessions(%s) listed %s/%s", user, s.AppName, s.UserID)
					}
				}
			}
		}},
	{"list metadata only", "TestListSessions_WithListSessionOnlyMeta",
		func(t *testing.T, svc session.Service, app string) {
			ctx := t.Context()
			key := session.Key{AppName: app, UserID: "user1", SessionID: "session1"}
			userKey := session.UserKey{AppName: app, UserID: "user1"}
			must(t, svc.UpdateAppState(ctx, app, session.StateMap{"app_key": []byte("app_value")}))
			must(t, svc.UpdateUserState(ctx, userKey, session.StateMap{"user_key": []byte("user_value")}))
			sess := mustCreate(t, svc, key, session.StateMap{"session_key": []byte("session_value")})
			mustAppend(t, svc, sess, message("author", model.RoleUser, "hello", time.Now()))
			listed, err := svc.ListSessions(ctx, userKey, session.WithListSessionOnlyMeta())
			if err != nil || len(listed) != 1 {
				t.Fatalf("ListSessions: %v %v", listed, err)
			}
			got := listed[0]
			if len(got.Events) != 0 || got.ID != key.SessionID || got.CreatedAt.IsZero() || got.UpdatedAt.IsZero() ||
				string(got.State["session_key"]) != "session_value" || string(got.State["app:app_key"]) != "app_value" ||
				string(got.State["user:user_key"]) != "user_value" {
				t.Errorf("listed %+v", got)
			}
		}},
	{"list a page", "TestListSessions_WithListSessionPage", func(t *testing.T, svc session.Service, app string) {
		userKey := session.UserKey{AppName: app, UserID: "user1"}
		for _, id := range []string{"session1", "session2", "session3"} {
			mustCreate(t, svc, session.Key{AppName: app, UserID: "user1", SessionID: id}, nil)
			time.Sleep(10 * time.Millisecond)
		}
		listed, err := svc.ListSessions(t.Context(), userKey, session.WithListSessionPage(1, 2))
		if err != nil || len(listed) != 2 || listed[0].ID != "session2" || listed[1].ID != "session1" {
			t.Errorf("page (1, 2): %v %v", listed, err)
		}
	}},
	{"update session state", "TestUpdateSessionState (without its temp: key: see mnemod_test.go)",
		func(t *testing.T, svc session.Service, app string) {
			key := session.Key{AppName: app, UserID: "user1", SessionID: "session1"}
			mustCreate(t, svc, key, session.StateMap{"existing": []byte("value")})
			must(t, svc.UpdateSessionState(t.Context(), key, session.StateMap{"session_key": []byte("updated")}))
			got := mustGet(t, svc, key)
			if string(got.State["session_key"]) != "updated" || string(got.State["existing"]) != "value" {
				t.Errorf("state %v", got.State)
			}
			for _, bad := range []string{"app:bad", "user:bad"} {
				if err := svc.UpdateSessionState(t.Context(), key, session.StateMap{bad: []byte("x")}); err == nil {
					t.Errorf("UpdateSessionState accepted %s", bad)
				}
			}
		}},
	{"delete a session", "TestDeleteSession", func(t *testing.T, svc session.Service, app string) {
		key := session.Key{AppName: app, UserID: "user1", SessionID: "session1"}
		mustCreate(t, svc, key, nil)
		must(t, svc.DeleteSession(t.Context(), key))
		if sess, err := svc.GetSession(t.Context(), key); sess != nil || err != nil {
			t.Errorf("a deleted session reads %v, %v", sess, err)
		}
		must(t, svc.DeleteSession(t.Context(), key))
		must(t, svc.DeleteSession(t.Context(), session.Key{AppName: app + "-none", UserID: "u", SessionID: "s"}))
		if err := svc.DeleteSession(t.Context(), session.Key{AppName: app, UserID: "user1"}); err == nil {
			t.Error("DeleteSession without a session id accepted it")
		}
	}},
	{"app and user state merged into sessions", "TestStateMerging",
		func(t *testing.T, svc session.Service, app string) {
			ctx := t.Context()
			userKey := session.UserKey{AppName: app, UserID: "test-user"}
			appState := session.StateMap{"config": []byte("production"), "app:version": []byte("1.0.0")}
			must(t, svc.UpdateAppState(ctx, app, appState))
			must(t, svc.UpdateUserState(ctx, userKey, session.StateMap{"preference": []byte("dark_mode")}))
			key := session.Key{AppName: app, UserID: "test-user", SessionID: "test-session"}
			for _, sess := range []*session.Session{mustCreate(t, svc, key, session.StateMap{"context": []byte("chat")}),
				mustGet(t, svc, key)} {
				want := map[string]string{"context": "chat", "app:config": "production", "app:version": "1.0.0",
					"user:preference": "dark_mode"}
				for k, v := range want {
					if string(sess.State[k]) != v {
						t.Errorf("state %s = %q, want %q (state %v)", k, sess.State[k], v, sess.State)
					}
				}
			}
			other := mustCreate(t, svc, session.Key{AppName: app, UserID: "other-user", SessionID: "s2"}, nil)
			if _, ok := other.State["user:preference"]; ok || string(other.State["app:config"]) != "production" {
				t.Errorf("another user's session: %v", other.State)
			}
		}},
	{"app state keys", "TestDeleteAppState", func(t *testing.T, svc session.Service, app string) {
		ctx := t.Context()
		must(t, svc.UpdateAppState(ctx, app, session.StateMap{"key1": []byte("value1"), "key2": []byte("value2")}))
		must(t, svc.DeleteAppState(ctx, app, "key1"))
		must(t, svc.UpdateAppState(ctx, app, session.StateMap{"app:key3": []byte("value3")}))
		must(t, svc.DeleteAppState(ctx, app, "app:key3"))
		state, err := svc.ListAppStates(ctx, app)
		if err != nil || state["key1"] != nil || state["key3"] != nil || string(state["key2"]) != "value2" {
			t.Errorf("app state %v, %v", state, err)
		}
		must(t, svc.DeleteAppState(ctx, app+"-none", "key1"))
		if err := svc.DeleteAppState(ctx, "", "key1"); err != session.ErrAppNameRequired {
			t.Errorf("DeleteAppState without an app: %v", err)
		}
	}},
	{"user state keys", "TestDeleteUserState, TestUpdateUserState_ErrorCases",
		func(t *testing.T, svc session.Service, app string) {
			ctx := t.Context()
			userKey := session.UserKey{AppName: app, UserID: "user1"}
			must(t, svc.UpdateUserState(ctx, userKey, session.StateMap{"key1": []byte("v1"), "user:key2": []byte("v2")}))
			must(t, svc.DeleteUserState(ctx, userKey, "user:key1"))
			state, err := svc.ListUserStates(ctx, userKey)
			if err != nil || state["key1"] != nil || string(state["key2"]) != "v2" {
				t.Errorf("user state %v, %v", state, err)
			}
			must(t, svc.DeleteUserState(ctx, session.UserKey{AppName: app, UserID: "nobody"}, "key1"))
			for _, bad := range []string{"app:key", "temp:key"} {
				if err := svc.UpdateUserState(ctx, userKey, session.StateMap{bad: []byte("x")}); err == nil {
					t.Errorf("UpdateUserState accepted %s", bad)
				}
			}
			if err := svc.UpdateUserState(ctx, session.UserKey{AppName: app}, nil); err != session.ErrUserIDRequired {
				t.Errorf("UpdateUserState without a user: %v", err)
			}
		}},
	{"append: the session in place, partial events, state deltas", "AppendEvent via TestGetSession's setup",
		func(t *testing.T, svc session.Service, app string) {
			key := session.Key{AppName: app, UserID: "user1", SessionID: "session1"}
			sess := mustCreate(t, svc, key, nil)
			e := message("user", model.RoleUser, "hello", time.Now())
			e.StateDelta = map[string][]byte{"step": []byte("1")}
			partial := message("bot", model.RoleAssistant, "hel", time.Now())
			partial.IsPartial = true
			stateOnly := event.New("inv-1", "bot")
			stateOnly.StateDelta = map[string][]byte{"mood": []byte("good")}
			mustAppend(t, svc, sess, e, partial, stateOnly)
			if len(sess.Events) != 1 || string(sess.State["mood"]) != "good" || string(sess.State["step"]) != "1" {
				t.Errorf("the session in place: %d events, state %v", len(sess.Events), sess.State)
			}
			got := mustGet(t, svc, key)
			if len(got.Events) != 1 || got.Events[0].ID != e.ID || string(got.State["mood"]) != "good" ||
				string(got.State["step"]) != "1" {
				t.Errorf("stored: %d events, state %v", len(got.Events), got.State)
			}
			if !got.Events[0].Timestamp.Equal(e.Timestamp) || got.Events[0].Response.Choices[0].Message.Content != "hello" {
				t.Errorf("the event read back: %+v", got.Events[0])
			}
		}},
	{"tracks, filtered as events are", "TestSessionServiceGetSessionFiltersTrackEvents",
		func(t *testing.T, svc session.Service, app string) {
			key := session.Key{AppName: app, UserID: "track-user", SessionID: "track-session"}
			sess := mustCreate(t, svc, key, nil)
			base := time.Now().Add(-time.Hour)
			for _, e := range []session.TrackEvent{{Track: "alpha", Payload: []byte(`"a1"`), Timestamp: base},
				{Track: "alpha", Payload: []byte(`"a2"`), Timestamp: base.Add(time.Second)},
				{Track: "alpha", Payload: []byte(`"a3"`), Timestamp: base.Add(2 * time.Second)},
				{Track: "beta", Payload: []byte(`"b1"`), Timestamp: base.Add(time.Second)},
				{Track: "beta", Payload: []byte(`"b2"`), Timestamp: base.Add(2 * time.Second)}} {
				must(t, svc.(session.TrackService).AppendTrackEvent(t.Context(), sess, &e))
			}
			payloads := func(got *session.Session, track session.Track) string {
				events, err := got.GetTrackEvents(track)
				if err != nil {
					t.Fatalf("track %s: %v", track, err)
				}
				var out []string
				for _, e := range events.Events {
					out = append(out, string(e.Payload))
				}
				return fmt.Sprint(out)
			}
			for _, c := range []struct {
				opts        []session.Option
				alpha, beta string
			}{
				{nil, `["a1" "a2" "a3"]`, `["b1" "b2"]`},
				{[]session.Option{session.WithEventTime(base.Add(time.Second))}, `["a2" "a3"]`, `["b1" "b2"]`},
				{[]session.Option{session.WithEventTime(base.Add(3 * time.Second))}, `[]`, `[]`},
				{[]session.Option{session.WithEventNum(1)}, `["a3"]`, `["b2"]`},
				{[]session.Option{session.WithEventNum(10)}, `["a1" "a2" "a3"]`, `["b1" "b2"]`},
			} {
				got := mustGet(t, svc, key, c.opts...)
				if a, b := payloads(got, "alpha"), payloads(got, "beta"); a != c.alpha || b != c.beta {
					t.Errorf("with %d options: alpha %s, beta %s; want %s, %s", len(c.opts), a, b, c.alpha, c.beta)
				}
			}
			if payloads(sess, "alpha") != `["a1" "a2" "a3"]` {
				t.Errorf("the session in place: alpha %s", payloads(sess, "alpha"))
			}
		}},
	{"summary text falls back to the whole session's", "TestMemoryService_GetSessionSummaryText_*",
		func(t *testing.T, svc session.Service, app string) {
			ctx := t.Context()
			if text, ok := svc.GetSessionSummaryText(ctx, nil); ok || text != "" {
				t.Errorf("a nil session's summary: %q", text)
			}
			sess := mustCreate(t, svc, session.Key{AppName: app, UserID: "u", SessionID: "s"}, nil)
			if _, ok := svc.GetSessionSummaryText(ctx, sess); ok {
				t.Error("a session without summaries has one")
			}
			now := time.Now()
			sess.Summaries = map[string]*session.Summary{"": {Summary: "all", UpdatedAt: now},
				"a": {Summary: "branch a", UpdatedAt: now}, "b": {UpdatedAt: now},
				"old": {Summary: "before the session", UpdatedAt: sess.CreatedAt.Add(-time.Hour)}}
			for key, want := range map[string]string{"a": "branch a", "b": "all", "c": "all", "": "all",
				"old": "all"} {
				if text, ok := svc.GetSessionSummaryText(ctx, sess, session.WithSummaryFilterKey(key)); !ok || text != want {
					t.Errorf("summary of %q: %q, want %q", key, text, want)
				}
			}
		}},
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// TestSuite runs the ported behaviours against tRPC's in-memory service and SessionService.
func TestSuite(t *testing.T) {
	for _, c := range suite {
		t.Run(c.name, func(t *testing.T) {
			eachService(t, func(t *testing.T, svc session.Service) { c.run(t, svc, appName()) })
		})
	}
}
