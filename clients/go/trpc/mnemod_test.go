package trpc_test

// What SessionService does that tRPC's in-memory service does not do, or
// does otherwise: the case says why.

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"trpc.group/trpc-go/trpc-agent-go/event"
	"trpc.group/trpc-go/trpc-agent-go/model"
	"trpc.group/trpc-go/trpc-agent-go/session"

	mnemo "github.com/mnemod/mnemod/clients/go"
	"github.com/mnemod/mnemod/clients/go/internal/daemontest"
	"github.com/mnemod/mnemod/clients/go/trpc"
)

// tRPC's in-memory service summarizes only with a summarizer of its own;
// SessionService has mnemod's summarizer (scripts/summarize.lua in the
// tests) summarize, by tRPC's filter-key prefix rule.
func TestSummariesByMnemod(t *testing.T) {
	eachMnemod(t, func(t *testing.T, svc *trpc.SessionService) {
		ctx := t.Context()
		app := appName()
		key := session.Key{AppName: app, UserID: "u1", SessionID: "s1"}
		sess := mustCreate(t, svc, key, nil)
		a := message("user", model.RoleUser, "deploy the app with make", time.Now())
		a.FilterKey = "app/a"
		b := message("bot", model.RoleAssistant, "deployed", time.Now())
		b.FilterKey = "app/b"
		c := message("user", model.RoleUser, "and the tea.", time.Now())
		mustAppend(t, svc, sess, a, b, c)

		must(t, svc.CreateSessionSummary(ctx, sess, "app", false))
		must(t, svc.CreateSessionSummary(ctx, sess, "", false))
		want := map[string]string{"app": "Summary: 2 events.", "": "Summary: 3 events.", "app/a": "Summary: 3 events."}
		read := mustGet(t, svc, key)
		for _, s := range []*session.Session{sess, read} {
			for fk, text := range want {
				if got, ok := svc.GetSessionSummaryText(ctx, s, session.WithSummaryFilterKey(fk)); !ok || got != text {
					t.Errorf("summary of %q: %q, want %q", fk, got, text)
				}
			}
		}
		if cutoff := read.Summaries[""].Boundary.CutoffAt; !cutoff.Equal(c.Timestamp) {
			t.Errorf("the summary's cutoff %v is not the last event's time %v", cutoff, c.Timestamp)
		}
		// Forced with nothing left to summarize: no error, as with nothing new.
		must(t, svc.CreateSessionSummary(ctx, sess, "", true))

		mustAppend(t, svc, sess, message("user", model.RoleUser, "one more", time.Now()))
		must(t, svc.EnqueueSummaryJob(ctx, sess, "", false))
		deadline := time.Now().Add(10 * time.Second)
		for {
			text, _ := svc.GetSessionSummaryText(ctx, mustGet(t, svc, key))
			if strings.HasPrefix(text, "Summary: 1 events.") {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("the enqueued summary never came; the summary is %q", text)
			}
			time.Sleep(20 * time.Millisecond)
		}
		if err := svc.CreateSessionSummary(ctx, nil, "", false); !errors.Is(err, session.ErrNilSession) {
			t.Errorf("summarizing a nil session: %v", err)
		}
		missing := &session.Session{AppName: app, UserID: "u1", ID: "missing"}
		if err := svc.CreateSessionSummary(ctx, missing, "", false); !errors.Is(err, mnemo.NotFound) {
			t.Errorf("summarizing a missing session: %v, want NotFound", err)
		}
	})
}

// State values are bytes in tRPC: kept as text when they are UTF-8 (other
// clients read them), as base64 otherwise, and read back byte for byte.
// mnemod applies prefixes where tRPC's in-memory service does not: app: and
// user: keys given at creation reach those scopes, and temp: keys are never
// stored (the in-memory service keeps both in the session).
func TestStateAsMnemodKeepsIt(t *testing.T) {
	for _, backend := range daemontest.Backends {
		t.Run(backend, func(t *testing.T) {
			ctx := t.Context()
			c := client(t, backend)
			svc := trpc.NewSessionService(c)
			app := appName()
			key := session.Key{AppName: app, UserID: "u1", SessionID: "s1"}
			state := session.StateMap{"text": []byte("plain"), "json": []byte(`{"a": [1, 2.50]}`),
				"bin": {0xff, 0xfe, 0}, "app:shared": []byte("A"), "temp:scratch": []byte("T")}
			created := mustCreate(t, svc, key, state)
			if string(created.State["temp:scratch"]) != "T" {
				t.Errorf("the session answered lacks its temp: key: %v", created.State)
			}
			got := mustGet(t, svc, key)
			for _, k := range []string{"text", "json", "bin", "app:shared"} {
				if string(got.State[k]) != string(state[k]) {
					t.Errorf("state %s read back %q, want %q", k, got.State[k], state[k])
				}
			}
			if _, ok := got.State["temp:scratch"]; ok {
				t.Error("a temp: key was stored")
			}
			plain, err := c.GetSession(ctx, app, "u1", "s1", mnemo.GetSessionOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if plain.Session.State["json"] != `{"a": [1, 2.50]}` || plain.Session.State["text"] != "plain" {
				t.Errorf("another client reads %v", plain.Session.State)
			}
			if appState, _ := svc.ListAppStates(ctx, app); string(appState["shared"]) != "A" {
				t.Errorf("app: key given at creation: app state %v", appState)
			}
			must(t, svc.UpdateSessionState(ctx, key, session.StateMap{"temp:t": []byte("x")}))
			if _, ok := mustGet(t, svc, key).State["temp:t"]; ok {
				t.Error("UpdateSessionState stored a temp: key")
			}
		})
	}
}

// The event round-trips whole, and mnemod sees its text, role, usage and
// filter key (for search, summaries, memory capture).
func TestEventRoundTripsWhole(t *testing.T) {
	for _, backend := range daemontest.Backends {
		t.Run(backend, func(t *testing.T) {
			c := client(t, backend)
			svc := trpc.NewSessionService(c)
			app := appName()
			key := session.Key{AppName: app, UserID: "u1", SessionID: "s1"}
			sess := mustCreate(t, svc, key, nil)
			ask := message("user", model.RoleUser, "weather in Lyon?", time.Now())
			call := event.New("inv-1", "assistant")
			call.Response = &model.Response{ID: "r1", Model: "scripted", Done: true,
				Usage: &model.Usage{PromptTokens: 7, CompletionTokens: 3, TotalTokens: 10},
				Choices: []model.Choice{{Message: model.Message{Role: model.RoleAssistant, Content: "checking",
					ToolCalls: []model.ToolCall{{Type: "function", ID: "call-1", Function: model.FunctionDefinitionParam{
						Name: "weather", Arguments: []byte(`{"city":"Lyon"}`)}}}}}}}
			call.FilterKey = "root/weather"
			call.Extensions = map[string]json.RawMessage{"trace": json.RawMessage(`{"n":1}`)}
			mustAppend(t, svc, sess, ask, call)
			got := mustGet(t, svc, key).Events
			if len(got) != 2 {
				t.Fatalf("%d events", len(got))
			}
			want, _ := json.Marshal(call)
			back, _ := json.Marshal(got[1])
			if string(want) != string(back) {
				t.Errorf("the event read back:\n%s\nwant\n%s", back, want)
			}
			stored, err := c.GetSession(t.Context(), app, "u1", "s1", mnemo.GetSessionOptions{})
			if err != nil {
				t.Fatal(err)
			}
			e := stored.Events[1]
			if e.Text() != "checking" || e.Role != mnemo.RoleAssistant || e.FilterKey != "root/weather" ||
				e.Usage == nil || e.Usage.TotalTokens != 10 || stored.Events[0].Role != mnemo.RoleUser {
				t.Errorf("mnemod holds %+v", e)
			}
		})
	}
}

// tRPC's in-memory service has no event search (SearchableService); its
// pgvector service searches by vectors. SessionService searches by words
// with mnemod's transcript search.
func TestSearchEvents(t *testing.T) {
	eachMnemod(t, func(t *testing.T, svc *trpc.SessionService) {
		app := appName()
		for id, texts := range map[string][]string{"s1": {"deploy the app with make", "it deployed fine"},
			"s2": {"lunch at noon", "deploy again tomorrow"}} {
			sess := mustCreate(t, svc, session.Key{AppName: app, UserID: "u1", SessionID: id}, nil)
			mustAppend(t, svc, sess, message("user", model.RoleUser, texts[0], time.Now()),
				message("bot", model.RoleAssistant, texts[1], time.Now()))
		}
		user := session.UserKey{AppName: app, UserID: "u1"}
		search := func(req session.EventSearchRequest) []session.EventSearchResult {
			t.Helper()
			req.UserKey = user
			results, err := svc.SearchEvents(t.Context(), req)
			if err != nil {
				t.Fatal(err)
			}
			return results
		}
		all := search(session.EventSearchRequest{Query: "how do I deploy?"})
		if len(all) != 3 || all[0].Score != 1 || all[0].Event.Response == nil || all[0].Text == "" {
			t.Fatalf("found %+v", all)
		}
		users := search(session.EventSearchRequest{Query: "deploy", Roles: []model.Role{model.RoleUser}})
		if len(users) != 1 || users[0].Text != "deploy the app with make" || users[0].SessionKey.SessionID != "s1" {
			t.Errorf("user events: %+v", users)
		}
		inS2 := search(session.EventSearchRequest{Query: "deploy", SessionIDs: []string{"s2"}, MaxResults: 5})
		if len(inS2) != 1 || inS2[0].Text != "deploy again tomorrow" || inS2[0].Role != model.RoleAssistant {
			t.Errorf("in s2: %+v", inS2)
		}
		both := session.EventSearchRequest{Query: "deploy", ExcludeSessionIDs: []string{"s1", "s2"}}
		if got := search(both); len(got) != 0 {
			t.Errorf("excluding both sessions found %+v", got)
		}
		other := session.EventSearchRequest{Query: "deploy", UserKey: session.UserKey{AppName: app, UserID: "u2"}}
		if got, err := svc.SearchEvents(t.Context(), other); err != nil || len(got) != 0 {
			t.Errorf("another user found %+v, %v", got, err)
		}
	})
}
