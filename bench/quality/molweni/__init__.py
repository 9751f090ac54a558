"""The Molweni conversation set (issue 35): Ubuntu IRC chats, questions written by Molweni's
annotators; see README.md."""
