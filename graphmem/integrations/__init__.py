"""graphmem inside the agent frameworks people use: a LangChain retriever and a LangGraph store.

Each module imports its framework at the top and is imported only by the program that uses it
(``pip install 'graphmem[langchain]'``, ``'graphmem[langgraph]'``): nothing on the product path or
the research side imports this package (``tests/unit/test_layout.py``), so neither framework is
needed by anything else.
"""
