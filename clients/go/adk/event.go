package adk

import (
	"cmp"
	"encoding/json"
	"fmt"
	"strings"

	"google.golang.org/adk/v2/session"
	"google.golang.org/genai"

	mnemo "github.com/mnemod/mnemod/clients/go"
)

// content is a mnemod event's content as this package writes it: the whole
// ADK event as ADK encodes it, and its text for mnemod's search, memory
// capture and summaries.
type content struct {
	ADK  json.RawMessage `json:"adk"`
	Text string          `json:"text,omitempty"`
}

// toMnemo is the mnemod event that stores event.
func toMnemo(event *session.Event) (mnemo.NewEvent, error) {
	whole, err := json.Marshal(event)
	if err != nil {
		return mnemo.NewEvent{}, fmt.Errorf("adk: event %s does not encode as JSON: %w", event.ID, err)
	}
	role := mnemo.RoleAssistant
	if event.Author == "user" {
		role = mnemo.RoleUser
	}
	stored := mnemo.NewEvent{
		ID:           event.ID,
		InvocationID: event.InvocationID,
		// mnemod needs an author; ADK's stays as it was inside the stored event.
		Author:     cmp.Or(event.Author, "adk"),
		Role:       role,
		Content:    content{ADK: whole, Text: textOf(event.Content)},
		StateDelta: event.Actions.StateDelta,
		Timestamp:  event.Timestamp,
	}
	if u := event.UsageMetadata; u != nil {
		stored.Usage = &mnemo.Usage{
			InputTokens:     int64(u.PromptTokenCount),
			OutputTokens:    int64(u.CandidatesTokenCount),
			CacheReadTokens: int64(u.CachedContentTokenCount),
			TotalTokens:     int64(u.TotalTokenCount),
		}
	}
	return stored, nil
}

// eventFrom is the ADK event a mnemod event stores: as written when this
// package wrote it, else (another client's event) a text event.
func eventFrom(e *mnemo.Event) (*session.Event, error) {
	var c content
	if json.Unmarshal(e.Content, &c) == nil && len(c.ADK) > 0 {
		var event session.Event
		if err := json.Unmarshal(c.ADK, &event); err != nil {
			return nil, fmt.Errorf("event %s holds an ADK event that does not decode: %w", e.ID, err)
		}
		return &event, nil
	}
	role := genai.RoleModel
	if e.Role == mnemo.RoleUser {
		role = genai.RoleUser
	}
	event := &session.Event{ID: e.ID, InvocationID: e.InvocationID, Author: e.Author, Timestamp: e.Timestamp,
		Actions: session.EventActions{StateDelta: e.StateDelta}}
	if text := e.Text(); text != "" {
		event.Content = genai.NewContentFromText(text, genai.Role(role))
	}
	return event, nil
}

// textOf is the text of a content's parts, thoughts left out.
func textOf(c *genai.Content) string {
	if c == nil {
		return ""
	}
	var texts []string
	for _, part := range c.Parts {
		if part != nil && part.Text != "" && !part.Thought {
			texts = append(texts, part.Text)
		}
	}
	return strings.Join(texts, "\n")
}
