// Copyright 2026 The Invoicing Authors.
//
// Licensed under the Apache License, Version 2.0 (the "License");
// you may not use this file except in compliance with the License.
// You may obtain a copy of the License at
//
//     http://www.apache.org/licenses/LICENSE-2.0
//
// Unless required by applicable law or agreed to in writing, software
// distributed under the License is distributed on an "AS IS" BASIS,
// WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
// See the License for the specific language governing permissions and
// limitations under the License.

package e2e

import (
	"fmt"
	"os"
	"regexp"
	"strings"
)

// This file reads the ```sh blocks of a Markdown document as a doc test,
// in the style of Go's example tests: the document is the test's input.
// The convention (docs/development.md, "The docs' commands are a test"):
//   - a block runs unless the line before its fence is
//     <!-- doc-test: skip (reason) -->;
//   - a command is a line and its continuations (a trailing backslash, an
//     open quote, a here-document);
//   - the "# " lines right after a command, on their own lines, are its
//     expected output, matched line by line, whitespace ignored, with "..."
//     standing for any text; a line that starts "#  " (two spaces or more)
//     continues the line before it (a wrapped JSON answer);
//   - a "# " line after a blank line is a note, and a comment at the end of
//     a command line is an annotation: neither is checked;
//   - a command whose annotation says "doc-test: skip" does not run;
//   - a command that shows no output must succeed; one that shows its
//     output may fail (a refusal), and then its output is what is checked.

// docCommand is one command of a document's sh block.
type docCommand struct {
	file     string
	line     int      // 1-based line of the command's first line
	text     string   // the command as the document has it, continuations included
	expected []string // the expected output lines, continuations joined
}

// skipMarker opts a block (in an HTML comment before its fence) or a
// command (in its annotation) out of the doc test.
const skipMarker = "doc-test: skip"

// heredoc finds a here-document's delimiter, not a here-string (<<<).
var heredoc = regexp.MustCompile(`(?:^|[^<])<<-?\s*['"]?([A-Za-z_][A-Za-z0-9_]*)['"]?`)

// readDocCommands returns the commands of path's ```sh blocks in order.
func readDocCommands(path, name string) ([]docCommand, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return parseDocCommands(name, string(data))
}

// parseDocCommands returns the commands of doc's ```sh blocks in order;
// name is how failures name the document.
func parseDocCommands(name, doc string) ([]docCommand, error) {
	lines := strings.Split(doc, "\n")
	var cmds []docCommand
	for i := 0; i < len(lines); i++ {
		if strings.TrimSpace(lines[i]) != "```sh" {
			continue
		}
		skip := i > 0 && strings.Contains(lines[i-1], skipMarker)
		end := i + 1
		for end < len(lines) && strings.TrimSpace(lines[end]) != "```" {
			end++
		}
		if end == len(lines) {
			return nil, fmt.Errorf("%s:%d: the sh block has no closing fence", name, i+1)
		}
		if !skip {
			block, err := parseBlock(name, lines[i+1:end], i+2)
			if err != nil {
				return nil, err
			}
			cmds = append(cmds, block...)
		}
		i = end
	}
	return cmds, nil
}

// parseBlock splits a block's lines into commands; first is the 1-based
// line number of lines[0].
func parseBlock(name string, lines []string, first int) ([]docCommand, error) {
	var cmds []docCommand
	var cur *docCommand // the command whose expected output may follow
	for i := 0; i < len(lines); i++ {
		line := lines[i]
		trimmed := strings.TrimSpace(line)
		switch {
		case trimmed == "":
			cur = nil
		case strings.HasPrefix(trimmed, "#"):
			if cur == nil {
				continue // a note
			}
			text := strings.TrimPrefix(trimmed, "#")
			if strings.HasPrefix(text, "  ") && len(cur.expected) > 0 {
				cur.expected[len(cur.expected)-1] += text
			} else {
				cur.expected = append(cur.expected, text)
			}
		default:
			cmd := docCommand{file: name, line: first + i}
			var text []string
			var st shellState
			for {
				text = append(text, lines[i])
				if st.scan(lines[i]) {
					if i+1 == len(lines) {
						return nil, fmt.Errorf("%s:%d: the command does not end within its block", name, cmd.line)
					}
					i++
					continue
				}
				if m := heredoc.FindStringSubmatch(st.code); m != nil {
					for {
						if i+1 == len(lines) {
							return nil, fmt.Errorf("%s:%d: the here-document has no %s line", name, cmd.line, m[1])
						}
						i++
						text = append(text, lines[i])
						if strings.TrimSpace(lines[i]) == m[1] {
							break
						}
					}
				}
				break
			}
			cmd.text = strings.Join(text, "\n")
			cmds = append(cmds, cmd)
			cur = &cmds[len(cmds)-1]
		}
	}
	return cmds, nil
}

// shellState follows quotes across the lines of one command, enough for
// the shell the docs use.
type shellState struct {
	single, double bool
	code           string // the last line's code, without its annotation
}

// scan reads one line and reports whether the command continues on the
// next: an open quote or a trailing backslash.
func (s *shellState) scan(line string) bool {
	var code strings.Builder
	escaped := false
	for _, r := range line {
		switch {
		case escaped:
			escaped = false
		case r == '\\' && !s.single:
			escaped = true
		case r == '\'' && !s.double:
			s.single = !s.single
		case r == '"' && !s.single:
			s.double = !s.double
		case r == '#' && !s.single && !s.double && (code.Len() == 0 || strings.HasSuffix(code.String(), " ")):
			s.code = code.String()
			return false
		}
		code.WriteRune(r)
	}
	s.code = code.String()
	return s.single || s.double || escaped
}

// skipped reports whether the command opts out in its first line's
// annotation.
func (c docCommand) skipped() bool {
	first, _, _ := strings.Cut(c.text, "\n")
	return strings.Contains(first, skipMarker)
}

// matches reports whether output is what the command's expected lines
// show: line by line, blank lines and whitespace ignored, "..." matching
// any text.
func (c docCommand) matches(output string) bool {
	var got []string
	for l := range strings.SplitSeq(output, "\n") {
		if l = strings.Join(strings.Fields(l), ""); l != "" {
			got = append(got, l)
		}
	}
	if len(got) != len(c.expected) {
		return false
	}
	for i, want := range c.expected {
		parts := strings.Split(strings.Join(strings.Fields(want), ""), "...")
		for j := range parts {
			parts[j] = regexp.QuoteMeta(parts[j])
		}
		if !regexp.MustCompile("^" + strings.Join(parts, ".*") + "$").MatchString(got[i]) {
			return false
		}
	}
	return true
}
