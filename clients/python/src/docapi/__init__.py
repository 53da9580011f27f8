"""docapi: the Python client of the docapi document-processing API.

    from docapi import Docapi
    client = Docapi(api_key="dk_...", base_url="http://localhost:8080/v1")
    job = client.rotate(client.files.upload("report.pdf")["id"], angle=90)
    assert job["output"] is not None  # set once the job succeeded
    client.files.download(job["output"]["files"][0], "rotated.pdf")
"""
from . import webhooks
from ._client import AsyncDocapi, Docapi
from ._operations import OPERATIONS
from .errors import (AuthenticationError, BadRequestError, DocapiError, GoneError, JobFailedError, NotFoundError,
                     PayloadTooLargeError, PermissionDeniedError, QuotaExceededError, RateLimitError, ServerError,
                     UnsupportedMediaTypeError)
from .types import ErrorDetail, File, Job, JobOutput, List

__all__ = ["Docapi", "AsyncDocapi", "DocapiError", "BadRequestError", "AuthenticationError", "QuotaExceededError",
           "PermissionDeniedError", "NotFoundError", "GoneError", "PayloadTooLargeError", "UnsupportedMediaTypeError",
           "RateLimitError", "ServerError", "JobFailedError", "File", "Job", "JobOutput", "List", "ErrorDetail",
           "OPERATIONS", "webhooks"]
__version__ = "1.0.0"
