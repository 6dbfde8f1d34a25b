package mnemo_test

import (
	"context"
	"errors"
	"fmt"
	"log"

	mnemo "github.com/mnemod/mnemod/clients/go"
)

// A session, an event with a state delta, and the session read back.
func Example() {
	ctx := context.Background()
	client, err := mnemo.New("") // MNEMO_URL, else http://127.0.0.1:7420
	if err != nil {
		log.Fatal(err)
	}
	defer client.Close()

	_, err = client.CreateSession(ctx, "shop", "u1", mnemo.NewSession{ID: "s1", State: map[string]any{"user:lang": "de"}})
	if err != nil {
		log.Fatal(err)
	}
	_, err = client.AppendEvent(ctx, "shop", "u1", "s1", mnemo.NewEvent{
		Author:     "user",
		Content:    map[string]any{"text": "hello"},
		StateDelta: map[string]any{"cart": 2, "temp:draft": "not stored"},
	}, mnemo.AppendOptions{})
	if err != nil {
		log.Fatal(err)
	}
	read, err := client.GetSession(ctx, "shop", "u1", "s1", mnemo.GetSessionOptions{})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(read.Events[0].Text(), read.Session.State)
	// Output: hello map[cart:2 user:lang:de]
}

// A retried append (the same client id and content) is stored once.
func ExampleClient_AppendEvents() {
	ctx := context.Background()
	client, _ := mnemo.New("")
	defer client.Close()

	event := mnemo.NewEvent{ID: mnemo.NewID(), Author: "user", Content: "deploy"}
	first, _ := client.AppendEvents(ctx, "shop", "u2", "s1", []mnemo.NewEvent{event},
		mnemo.AppendOptions{CreateIfMissing: true})
	retry, _ := client.AppendEvents(ctx, "shop", "u2", "s1", []mnemo.NewEvent{event}, mnemo.AppendOptions{})
	fmt.Println(first.Appended[0].Seq, retry.Appended[0].Seq, retry.Version == first.Version)
	// Output: 1 1 true
}

// A write conditional on the version read: a stale one is a Conflict that
// carries the current version.
func ExampleError_CurrentVersion() {
	ctx := context.Background()
	client, _ := mnemo.New("")
	defer client.Close()

	s, _ := client.CreateSession(ctx, "shop", "u3", mnemo.NewSession{})
	_, _ = client.PatchSessionState(ctx, "shop", "u3", s.ID, map[string]any{"step": 1}, s.Version)
	_, err := client.PatchSessionState(ctx, "shop", "u3", s.ID, map[string]any{"step": 2}, s.Version)

	var apiErr *mnemo.Error
	if errors.Is(err, mnemo.Conflict) && errors.As(err, &apiErr) {
		current, _ := apiErr.CurrentVersion()
		fmt.Println("conflict: the session is at version", current)
	}
	// Output: conflict: the session is at version 2
}

// Every session of a user, page by page as the loop consumes them.
func ExampleClient_Sessions() {
	ctx := context.Background()
	client, _ := mnemo.New("")
	defer client.Close()

	for _, id := range []string{"a", "b", "c"} {
		_, _ = client.CreateSession(ctx, "shop", "u4", mnemo.NewSession{ID: id})
	}
	n := 0
	for _, err := range client.Sessions(ctx, "shop", "u4", mnemo.ListSessionsOptions{Limit: 2}) {
		if err != nil {
			log.Fatal(err)
		}
		n++
	}
	fmt.Println(n, "sessions")
	// Output: 3 sessions
}

// Memories recalled by a natural question.
func ExampleClient_Recall() {
	ctx := context.Background()
	client, _ := mnemo.New("")
	defer client.Close()

	_, err := client.WriteMemories(ctx, "shop", "u5", []mnemo.NewMemory{
		{Text: "Prefers an aisle seat on flights"},
		{Text: "Drinks green tea, no sugar"},
	}, true)
	if err != nil {
		log.Fatal(err)
	}
	found, err := client.Recall(ctx, "shop", mnemo.RecallRequest{Query: "what does the user drink?", User: "u5"})
	if err != nil {
		log.Fatal(err)
	}
	for _, m := range found.Memories {
		fmt.Println(m.Text)
	}
	// Output: Drinks green tea, no sugar
}
