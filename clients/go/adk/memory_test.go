package adk_test

import (
	"testing"
	"time"

	"google.golang.org/adk/v2/memory"
	"google.golang.org/adk/v2/model"
	"google.golang.org/adk/v2/session"
	"google.golang.org/genai"

	mnemo "github.com/mnemod/mnemod/clients/go"
	"github.com/mnemod/mnemod/clients/go/adk"
)

// One test per rule of MemoryService; ADK-Go has no shared memory suite.

// appendText appends a text event of author to sess.
func appendText(t *testing.T, s *adk.SessionService, sess session.Session, author, text string) *session.Event {
	t.Helper()
	role := genai.RoleModel
	if author == "user" {
		role = genai.RoleUser
	}
	event := &session.Event{Author: author, Timestamp: time.Now(),
		LLMResponse: model.LLMResponse{Content: genai.NewContentFromText(text, genai.Role(role))}}
	if err := s.AppendEvent(t.Context(), sess, event); err != nil {
		t.Fatal(err)
	}
	return event
}

// addToMemory files sess in m's memory.
func addToMemory(t *testing.T, m *adk.MemoryService, sess session.Session) {
	t.Helper()
	if err := m.AddSessionToMemory(t.Context(), sess); err != nil {
		t.Fatal(err)
	}
}

func memoriesOf(t *testing.T, c *mnemo.Client, app, user string) []mnemo.Memory {
	t.Helper()
	var all []mnemo.Memory
	for m, err := range c.Memories(t.Context(), app, user, mnemo.ListMemoriesOptions{}) {
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, m)
	}
	return all
}

func search(t *testing.T, m *adk.MemoryService, app, user, query string) []memory.Entry {
	t.Helper()
	found, err := m.SearchMemory(t.Context(), &memory.SearchRequest{AppName: app, UserID: user, Query: query})
	if err != nil {
		t.Fatal(err)
	}
	if found.Memories == nil {
		t.Fatal("SearchMemory answered a nil slice; ADK asks for an empty one")
	}
	return found.Memories
}

// AddSessionToMemory files a session's text events, and only those.
func TestAddSessionFilesTextEvents(t *testing.T) {
	eachBackend(t, func(t *testing.T, c *mnemo.Client) {
		s, m := adk.NewSessionService(c), adk.NewMemoryService(c)
		sess := create(t, s, "mem1", "u1", nil)
		appendText(t, s, sess, "user", "My favourite drink is green tea")
		appendText(t, s, sess, "assistant", "Noted: green tea.")
		thought := &session.Event{Author: "assistant", LLMResponse: model.LLMResponse{Content: &genai.Content{
			Role: genai.RoleModel, Parts: []*genai.Part{{Text: "thinking aloud", Thought: true}}}}}
		for _, e := range []*session.Event{thought, {Author: "assistant", Actions: session.EventActions{
			StateDelta: map[string]any{"k": 1}}}} {
			if err := s.AppendEvent(t.Context(), sess, e); err != nil {
				t.Fatal(err)
			}
		}
		addToMemory(t, m, sess)
		filed := memoriesOf(t, c, "mem1", "u1")
		if len(filed) != 2 {
			t.Fatalf("filed %d memories, want the 2 text events: %+v", len(filed), filed)
		}
		for _, mem := range filed {
			if mem.Namespace != "adk" || mem.SessionID != sess.ID() || mem.Metadata["session_id"] != sess.ID() {
				t.Errorf("memory %+v", mem)
			}
		}
	})
}

// Adding the same session again adds nothing twice, only its new events.
func TestAddSessionIsIdempotent(t *testing.T) {
	eachBackend(t, func(t *testing.T, c *mnemo.Client) {
		s, m := adk.NewSessionService(c), adk.NewMemoryService(c)
		sess := create(t, s, "mem2", "u1", nil)
		appendText(t, s, sess, "user", "I live in Lyon")
		addToMemory(t, m, sess)
		addToMemory(t, m, sess)
		if n := len(memoriesOf(t, c, "mem2", "u1")); n != 1 {
			t.Fatalf("after adding the session twice: %d memories, want 1", n)
		}
		appendText(t, s, sess, "user", "I work at the library")
		addToMemory(t, m, get(t, s, sess, time.Time{}))
		if n := len(memoriesOf(t, c, "mem2", "u1")); n != 2 {
			t.Errorf("after a new event: %d memories, want 2", n)
		}
	})
}

// SearchMemory answers a natural question from mnemod's recall, with the
// entry's author, time and text.
func TestSearchAnswersNaturalQuestions(t *testing.T) {
	eachBackend(t, func(t *testing.T, c *mnemo.Client) {
		s, m := adk.NewSessionService(c), adk.NewMemoryService(c)
		sess := create(t, s, "mem3", "u1", nil)
		said := appendText(t, s, sess, "user", "My favourite drink is green tea")
		appendText(t, s, sess, "assistant", "I will remember the weather in Lyon")
		addToMemory(t, m, sess)
		found := search(t, m, "mem3", "u1", "What drink does the user like?")
		if len(found) != 1 {
			t.Fatalf("found %d memories, want 1: %+v", len(found), found)
		}
		entry := found[0]
		if entry.Author != "user" || entry.Content.Role != genai.RoleUser || !entry.Timestamp.Equal(said.Timestamp) ||
			entry.Content.Parts[0].Text != "My favourite drink is green tea" || entry.ID == "" {
			t.Errorf("entry %+v", entry)
		}
	})
}

// SearchMemory is one user's: another user's memories are never answered,
// and no match is an empty slice.
func TestSearchIsPerUser(t *testing.T) {
	eachBackend(t, func(t *testing.T, c *mnemo.Client) {
		s, m := adk.NewSessionService(c), adk.NewMemoryService(c)
		sess := create(t, s, "mem4", "u1", nil)
		appendText(t, s, sess, "user", "My passport number is in the blue folder")
		addToMemory(t, m, sess)
		if found := search(t, m, "mem4", "u2", "where is the passport?"); len(found) != 0 {
			t.Errorf("another user found %+v", found)
		}
		if found := search(t, m, "mem4", "u1", "bicycle"); len(found) != 0 {
			t.Errorf("no match found %+v", found)
		}
		if found := search(t, m, "mem4", "u1", "where is the passport?"); len(found) != 1 {
			t.Errorf("the user found %d memories, want 1", len(found))
		}
	})
}
